// Type-level guard: every $defs type is exported as `<Name>`, equal to the output of `<Name>Schema`, and none
// is `any`. Checked by `tsc` (typecheck); the list mirrors schema.json's $defs.
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type * as P from '../index.js';

describe('exported types', () => {
  it("equal their schemas' output", () => {
    expectTypeOf<P.Annotations>().toEqualTypeOf<z.output<typeof P.AnnotationsSchema>>();
    expectTypeOf<P.AudioContent>().toEqualTypeOf<z.output<typeof P.AudioContentSchema>>();
    expectTypeOf<P.BaseMetadata>().toEqualTypeOf<z.output<typeof P.BaseMetadataSchema>>();
    expectTypeOf<P.BlobResourceContents>().toEqualTypeOf<z.output<typeof P.BlobResourceContentsSchema>>();
    expectTypeOf<P.BooleanSchema>().toEqualTypeOf<z.output<typeof P.BooleanSchemaSchema>>();
    expectTypeOf<P.CacheableResult>().toEqualTypeOf<z.output<typeof P.CacheableResultSchema>>();
    expectTypeOf<P.CallToolRequest>().toEqualTypeOf<z.output<typeof P.CallToolRequestSchema>>();
    expectTypeOf<P.CallToolRequestParams>().toEqualTypeOf<z.output<typeof P.CallToolRequestParamsSchema>>();
    expectTypeOf<P.CallToolResult>().toEqualTypeOf<z.output<typeof P.CallToolResultSchema>>();
    expectTypeOf<P.CallToolResultResponse>().toEqualTypeOf<z.output<typeof P.CallToolResultResponseSchema>>();
    expectTypeOf<P.CancelledNotification>().toEqualTypeOf<z.output<typeof P.CancelledNotificationSchema>>();
    expectTypeOf<P.CancelledNotificationParams>().toEqualTypeOf<
      z.output<typeof P.CancelledNotificationParamsSchema>
    >();
    expectTypeOf<P.ClientCapabilities>().toEqualTypeOf<z.output<typeof P.ClientCapabilitiesSchema>>();
    expectTypeOf<P.ClientNotification>().toEqualTypeOf<z.output<typeof P.ClientNotificationSchema>>();
    expectTypeOf<P.ClientRequest>().toEqualTypeOf<z.output<typeof P.ClientRequestSchema>>();
    expectTypeOf<P.ClientResult>().toEqualTypeOf<z.output<typeof P.ClientResultSchema>>();
    expectTypeOf<P.CompleteRequest>().toEqualTypeOf<z.output<typeof P.CompleteRequestSchema>>();
    expectTypeOf<P.CompleteRequestParams>().toEqualTypeOf<z.output<typeof P.CompleteRequestParamsSchema>>();
    expectTypeOf<P.CompleteResult>().toEqualTypeOf<z.output<typeof P.CompleteResultSchema>>();
    expectTypeOf<P.CompleteResultResponse>().toEqualTypeOf<z.output<typeof P.CompleteResultResponseSchema>>();
    expectTypeOf<P.ContentBlock>().toEqualTypeOf<z.output<typeof P.ContentBlockSchema>>();
    expectTypeOf<P.CreateMessageRequest>().toEqualTypeOf<z.output<typeof P.CreateMessageRequestSchema>>();
    expectTypeOf<P.CreateMessageRequestParams>().toEqualTypeOf<
      z.output<typeof P.CreateMessageRequestParamsSchema>
    >();
    expectTypeOf<P.CreateMessageResult>().toEqualTypeOf<z.output<typeof P.CreateMessageResultSchema>>();
    expectTypeOf<P.Cursor>().toEqualTypeOf<z.output<typeof P.CursorSchema>>();
    expectTypeOf<P.DiscoverRequest>().toEqualTypeOf<z.output<typeof P.DiscoverRequestSchema>>();
    expectTypeOf<P.DiscoverResult>().toEqualTypeOf<z.output<typeof P.DiscoverResultSchema>>();
    expectTypeOf<P.DiscoverResultResponse>().toEqualTypeOf<z.output<typeof P.DiscoverResultResponseSchema>>();
    expectTypeOf<P.ElicitRequest>().toEqualTypeOf<z.output<typeof P.ElicitRequestSchema>>();
    expectTypeOf<P.ElicitRequestFormParams>().toEqualTypeOf<
      z.output<typeof P.ElicitRequestFormParamsSchema>
    >();
    expectTypeOf<P.ElicitRequestParams>().toEqualTypeOf<z.output<typeof P.ElicitRequestParamsSchema>>();
    expectTypeOf<P.ElicitRequestURLParams>().toEqualTypeOf<z.output<typeof P.ElicitRequestURLParamsSchema>>();
    expectTypeOf<P.ElicitResult>().toEqualTypeOf<z.output<typeof P.ElicitResultSchema>>();
    expectTypeOf<P.EmbeddedResource>().toEqualTypeOf<z.output<typeof P.EmbeddedResourceSchema>>();
    expectTypeOf<P.EmptyResult>().toEqualTypeOf<z.output<typeof P.EmptyResultSchema>>();
    expectTypeOf<P.EnumSchema>().toEqualTypeOf<z.output<typeof P.EnumSchemaSchema>>();
    expectTypeOf<P.Error>().toEqualTypeOf<z.output<typeof P.ErrorSchema>>();
    expectTypeOf<P.GetPromptRequest>().toEqualTypeOf<z.output<typeof P.GetPromptRequestSchema>>();
    expectTypeOf<P.GetPromptRequestParams>().toEqualTypeOf<z.output<typeof P.GetPromptRequestParamsSchema>>();
    expectTypeOf<P.GetPromptResult>().toEqualTypeOf<z.output<typeof P.GetPromptResultSchema>>();
    expectTypeOf<P.GetPromptResultResponse>().toEqualTypeOf<
      z.output<typeof P.GetPromptResultResponseSchema>
    >();
    expectTypeOf<P.HeaderMismatchError>().toEqualTypeOf<z.output<typeof P.HeaderMismatchErrorSchema>>();
    expectTypeOf<P.Icon>().toEqualTypeOf<z.output<typeof P.IconSchema>>();
    expectTypeOf<P.Icons>().toEqualTypeOf<z.output<typeof P.IconsSchema>>();
    expectTypeOf<P.ImageContent>().toEqualTypeOf<z.output<typeof P.ImageContentSchema>>();
    expectTypeOf<P.Implementation>().toEqualTypeOf<z.output<typeof P.ImplementationSchema>>();
    expectTypeOf<P.InputRequest>().toEqualTypeOf<z.output<typeof P.InputRequestSchema>>();
    expectTypeOf<P.InputRequests>().toEqualTypeOf<z.output<typeof P.InputRequestsSchema>>();
    expectTypeOf<P.InputRequiredResult>().toEqualTypeOf<z.output<typeof P.InputRequiredResultSchema>>();
    expectTypeOf<P.InputResponse>().toEqualTypeOf<z.output<typeof P.InputResponseSchema>>();
    expectTypeOf<P.InputResponseRequestParams>().toEqualTypeOf<
      z.output<typeof P.InputResponseRequestParamsSchema>
    >();
    expectTypeOf<P.InputResponses>().toEqualTypeOf<z.output<typeof P.InputResponsesSchema>>();
    expectTypeOf<P.InternalError>().toEqualTypeOf<z.output<typeof P.InternalErrorSchema>>();
    expectTypeOf<P.InvalidParamsError>().toEqualTypeOf<z.output<typeof P.InvalidParamsErrorSchema>>();
    expectTypeOf<P.InvalidRequestError>().toEqualTypeOf<z.output<typeof P.InvalidRequestErrorSchema>>();
    expectTypeOf<P.JSONArray>().toEqualTypeOf<z.output<typeof P.JSONArraySchema>>();
    expectTypeOf<P.JSONObject>().toEqualTypeOf<z.output<typeof P.JSONObjectSchema>>();
    expectTypeOf<P.JSONRPCErrorResponse>().toEqualTypeOf<z.output<typeof P.JSONRPCErrorResponseSchema>>();
    expectTypeOf<P.JSONRPCMessage>().toEqualTypeOf<z.output<typeof P.JSONRPCMessageSchema>>();
    expectTypeOf<P.JSONRPCNotification>().toEqualTypeOf<z.output<typeof P.JSONRPCNotificationSchema>>();
    expectTypeOf<P.JSONRPCRequest>().toEqualTypeOf<z.output<typeof P.JSONRPCRequestSchema>>();
    expectTypeOf<P.JSONRPCResponse>().toEqualTypeOf<z.output<typeof P.JSONRPCResponseSchema>>();
    expectTypeOf<P.JSONRPCResultResponse>().toEqualTypeOf<z.output<typeof P.JSONRPCResultResponseSchema>>();
    expectTypeOf<P.JSONValue>().toEqualTypeOf<z.output<typeof P.JSONValueSchema>>();
    expectTypeOf<P.LegacyTitledEnumSchema>().toEqualTypeOf<z.output<typeof P.LegacyTitledEnumSchemaSchema>>();
    expectTypeOf<P.ListPromptsRequest>().toEqualTypeOf<z.output<typeof P.ListPromptsRequestSchema>>();
    expectTypeOf<P.ListPromptsResult>().toEqualTypeOf<z.output<typeof P.ListPromptsResultSchema>>();
    expectTypeOf<P.ListPromptsResultResponse>().toEqualTypeOf<
      z.output<typeof P.ListPromptsResultResponseSchema>
    >();
    expectTypeOf<P.ListResourceTemplatesRequest>().toEqualTypeOf<
      z.output<typeof P.ListResourceTemplatesRequestSchema>
    >();
    expectTypeOf<P.ListResourceTemplatesResult>().toEqualTypeOf<
      z.output<typeof P.ListResourceTemplatesResultSchema>
    >();
    expectTypeOf<P.ListResourceTemplatesResultResponse>().toEqualTypeOf<
      z.output<typeof P.ListResourceTemplatesResultResponseSchema>
    >();
    expectTypeOf<P.ListResourcesRequest>().toEqualTypeOf<z.output<typeof P.ListResourcesRequestSchema>>();
    expectTypeOf<P.ListResourcesResult>().toEqualTypeOf<z.output<typeof P.ListResourcesResultSchema>>();
    expectTypeOf<P.ListResourcesResultResponse>().toEqualTypeOf<
      z.output<typeof P.ListResourcesResultResponseSchema>
    >();
    expectTypeOf<P.ListRootsRequest>().toEqualTypeOf<z.output<typeof P.ListRootsRequestSchema>>();
    expectTypeOf<P.ListRootsResult>().toEqualTypeOf<z.output<typeof P.ListRootsResultSchema>>();
    expectTypeOf<P.ListToolsRequest>().toEqualTypeOf<z.output<typeof P.ListToolsRequestSchema>>();
    expectTypeOf<P.ListToolsResult>().toEqualTypeOf<z.output<typeof P.ListToolsResultSchema>>();
    expectTypeOf<P.ListToolsResultResponse>().toEqualTypeOf<
      z.output<typeof P.ListToolsResultResponseSchema>
    >();
    expectTypeOf<P.LoggingLevel>().toEqualTypeOf<z.output<typeof P.LoggingLevelSchema>>();
    expectTypeOf<P.LoggingMessageNotification>().toEqualTypeOf<
      z.output<typeof P.LoggingMessageNotificationSchema>
    >();
    expectTypeOf<P.LoggingMessageNotificationParams>().toEqualTypeOf<
      z.output<typeof P.LoggingMessageNotificationParamsSchema>
    >();
    expectTypeOf<P.MetaObject>().toEqualTypeOf<z.output<typeof P.MetaObjectSchema>>();
    expectTypeOf<P.MethodNotFoundError>().toEqualTypeOf<z.output<typeof P.MethodNotFoundErrorSchema>>();
    expectTypeOf<P.MissingRequiredClientCapabilityError>().toEqualTypeOf<
      z.output<typeof P.MissingRequiredClientCapabilityErrorSchema>
    >();
    expectTypeOf<P.ModelHint>().toEqualTypeOf<z.output<typeof P.ModelHintSchema>>();
    expectTypeOf<P.ModelPreferences>().toEqualTypeOf<z.output<typeof P.ModelPreferencesSchema>>();
    expectTypeOf<P.MultiSelectEnumSchema>().toEqualTypeOf<z.output<typeof P.MultiSelectEnumSchemaSchema>>();
    expectTypeOf<P.Notification>().toEqualTypeOf<z.output<typeof P.NotificationSchema>>();
    expectTypeOf<P.NotificationMetaObject>().toEqualTypeOf<z.output<typeof P.NotificationMetaObjectSchema>>();
    expectTypeOf<P.NotificationParams>().toEqualTypeOf<z.output<typeof P.NotificationParamsSchema>>();
    expectTypeOf<P.NumberSchema>().toEqualTypeOf<z.output<typeof P.NumberSchemaSchema>>();
    expectTypeOf<P.PaginatedRequest>().toEqualTypeOf<z.output<typeof P.PaginatedRequestSchema>>();
    expectTypeOf<P.PaginatedRequestParams>().toEqualTypeOf<z.output<typeof P.PaginatedRequestParamsSchema>>();
    expectTypeOf<P.PaginatedResult>().toEqualTypeOf<z.output<typeof P.PaginatedResultSchema>>();
    expectTypeOf<P.ParseError>().toEqualTypeOf<z.output<typeof P.ParseErrorSchema>>();
    expectTypeOf<P.PrimitiveSchemaDefinition>().toEqualTypeOf<
      z.output<typeof P.PrimitiveSchemaDefinitionSchema>
    >();
    expectTypeOf<P.ProgressNotification>().toEqualTypeOf<z.output<typeof P.ProgressNotificationSchema>>();
    expectTypeOf<P.ProgressNotificationParams>().toEqualTypeOf<
      z.output<typeof P.ProgressNotificationParamsSchema>
    >();
    expectTypeOf<P.ProgressToken>().toEqualTypeOf<z.output<typeof P.ProgressTokenSchema>>();
    expectTypeOf<P.Prompt>().toEqualTypeOf<z.output<typeof P.PromptSchema>>();
    expectTypeOf<P.PromptArgument>().toEqualTypeOf<z.output<typeof P.PromptArgumentSchema>>();
    expectTypeOf<P.PromptListChangedNotification>().toEqualTypeOf<
      z.output<typeof P.PromptListChangedNotificationSchema>
    >();
    expectTypeOf<P.PromptMessage>().toEqualTypeOf<z.output<typeof P.PromptMessageSchema>>();
    expectTypeOf<P.PromptReference>().toEqualTypeOf<z.output<typeof P.PromptReferenceSchema>>();
    expectTypeOf<P.ReadResourceRequest>().toEqualTypeOf<z.output<typeof P.ReadResourceRequestSchema>>();
    expectTypeOf<P.ReadResourceRequestParams>().toEqualTypeOf<
      z.output<typeof P.ReadResourceRequestParamsSchema>
    >();
    expectTypeOf<P.ReadResourceResult>().toEqualTypeOf<z.output<typeof P.ReadResourceResultSchema>>();
    expectTypeOf<P.ReadResourceResultResponse>().toEqualTypeOf<
      z.output<typeof P.ReadResourceResultResponseSchema>
    >();
    expectTypeOf<P.Request>().toEqualTypeOf<z.output<typeof P.RequestSchema>>();
    expectTypeOf<P.RequestId>().toEqualTypeOf<z.output<typeof P.RequestIdSchema>>();
    expectTypeOf<P.RequestMetaObject>().toEqualTypeOf<z.output<typeof P.RequestMetaObjectSchema>>();
    expectTypeOf<P.RequestParams>().toEqualTypeOf<z.output<typeof P.RequestParamsSchema>>();
    expectTypeOf<P.Resource>().toEqualTypeOf<z.output<typeof P.ResourceSchema>>();
    expectTypeOf<P.ResourceContents>().toEqualTypeOf<z.output<typeof P.ResourceContentsSchema>>();
    expectTypeOf<P.ResourceLink>().toEqualTypeOf<z.output<typeof P.ResourceLinkSchema>>();
    expectTypeOf<P.ResourceListChangedNotification>().toEqualTypeOf<
      z.output<typeof P.ResourceListChangedNotificationSchema>
    >();
    expectTypeOf<P.ResourceRequestParams>().toEqualTypeOf<z.output<typeof P.ResourceRequestParamsSchema>>();
    expectTypeOf<P.ResourceTemplate>().toEqualTypeOf<z.output<typeof P.ResourceTemplateSchema>>();
    expectTypeOf<P.ResourceTemplateReference>().toEqualTypeOf<
      z.output<typeof P.ResourceTemplateReferenceSchema>
    >();
    expectTypeOf<P.ResourceUpdatedNotification>().toEqualTypeOf<
      z.output<typeof P.ResourceUpdatedNotificationSchema>
    >();
    expectTypeOf<P.ResourceUpdatedNotificationParams>().toEqualTypeOf<
      z.output<typeof P.ResourceUpdatedNotificationParamsSchema>
    >();
    expectTypeOf<P.Result>().toEqualTypeOf<z.output<typeof P.ResultSchema>>();
    expectTypeOf<P.ResultMetaObject>().toEqualTypeOf<z.output<typeof P.ResultMetaObjectSchema>>();
    expectTypeOf<P.ResultType>().toEqualTypeOf<z.output<typeof P.ResultTypeSchema>>();
    expectTypeOf<P.Role>().toEqualTypeOf<z.output<typeof P.RoleSchema>>();
    expectTypeOf<P.Root>().toEqualTypeOf<z.output<typeof P.RootSchema>>();
    expectTypeOf<P.SamplingMessage>().toEqualTypeOf<z.output<typeof P.SamplingMessageSchema>>();
    expectTypeOf<P.SamplingMessageContentBlock>().toEqualTypeOf<
      z.output<typeof P.SamplingMessageContentBlockSchema>
    >();
    expectTypeOf<P.ServerCapabilities>().toEqualTypeOf<z.output<typeof P.ServerCapabilitiesSchema>>();
    expectTypeOf<P.ServerNotification>().toEqualTypeOf<z.output<typeof P.ServerNotificationSchema>>();
    expectTypeOf<P.ServerResult>().toEqualTypeOf<z.output<typeof P.ServerResultSchema>>();
    expectTypeOf<P.SingleSelectEnumSchema>().toEqualTypeOf<z.output<typeof P.SingleSelectEnumSchemaSchema>>();
    expectTypeOf<P.StringSchema>().toEqualTypeOf<z.output<typeof P.StringSchemaSchema>>();
    expectTypeOf<P.SubscriptionFilter>().toEqualTypeOf<z.output<typeof P.SubscriptionFilterSchema>>();
    expectTypeOf<P.SubscriptionsAcknowledgedNotification>().toEqualTypeOf<
      z.output<typeof P.SubscriptionsAcknowledgedNotificationSchema>
    >();
    expectTypeOf<P.SubscriptionsAcknowledgedNotificationParams>().toEqualTypeOf<
      z.output<typeof P.SubscriptionsAcknowledgedNotificationParamsSchema>
    >();
    expectTypeOf<P.SubscriptionsListenRequest>().toEqualTypeOf<
      z.output<typeof P.SubscriptionsListenRequestSchema>
    >();
    expectTypeOf<P.SubscriptionsListenRequestParams>().toEqualTypeOf<
      z.output<typeof P.SubscriptionsListenRequestParamsSchema>
    >();
    expectTypeOf<P.SubscriptionsListenResult>().toEqualTypeOf<
      z.output<typeof P.SubscriptionsListenResultSchema>
    >();
    expectTypeOf<P.SubscriptionsListenResultMetaObject>().toEqualTypeOf<
      z.output<typeof P.SubscriptionsListenResultMetaObjectSchema>
    >();
    expectTypeOf<P.SubscriptionsListenResultResponse>().toEqualTypeOf<
      z.output<typeof P.SubscriptionsListenResultResponseSchema>
    >();
    expectTypeOf<P.TextContent>().toEqualTypeOf<z.output<typeof P.TextContentSchema>>();
    expectTypeOf<P.TextResourceContents>().toEqualTypeOf<z.output<typeof P.TextResourceContentsSchema>>();
    expectTypeOf<P.TitledMultiSelectEnumSchema>().toEqualTypeOf<
      z.output<typeof P.TitledMultiSelectEnumSchemaSchema>
    >();
    expectTypeOf<P.TitledSingleSelectEnumSchema>().toEqualTypeOf<
      z.output<typeof P.TitledSingleSelectEnumSchemaSchema>
    >();
    expectTypeOf<P.Tool>().toEqualTypeOf<z.output<typeof P.ToolSchema>>();
    expectTypeOf<P.ToolAnnotations>().toEqualTypeOf<z.output<typeof P.ToolAnnotationsSchema>>();
    expectTypeOf<P.ToolChoice>().toEqualTypeOf<z.output<typeof P.ToolChoiceSchema>>();
    expectTypeOf<P.ToolListChangedNotification>().toEqualTypeOf<
      z.output<typeof P.ToolListChangedNotificationSchema>
    >();
    expectTypeOf<P.ToolResultContent>().toEqualTypeOf<z.output<typeof P.ToolResultContentSchema>>();
    expectTypeOf<P.ToolUseContent>().toEqualTypeOf<z.output<typeof P.ToolUseContentSchema>>();
    expectTypeOf<P.UnsupportedProtocolVersionError>().toEqualTypeOf<
      z.output<typeof P.UnsupportedProtocolVersionErrorSchema>
    >();
    expectTypeOf<P.UntitledMultiSelectEnumSchema>().toEqualTypeOf<
      z.output<typeof P.UntitledMultiSelectEnumSchemaSchema>
    >();
    expectTypeOf<P.UntitledSingleSelectEnumSchema>().toEqualTypeOf<
      z.output<typeof P.UntitledSingleSelectEnumSchemaSchema>
    >();
  });

  it('are never any', () => {
    expectTypeOf<P.Annotations>().not.toBeAny();
    expectTypeOf<P.AudioContent>().not.toBeAny();
    expectTypeOf<P.BaseMetadata>().not.toBeAny();
    expectTypeOf<P.BlobResourceContents>().not.toBeAny();
    expectTypeOf<P.BooleanSchema>().not.toBeAny();
    expectTypeOf<P.CacheableResult>().not.toBeAny();
    expectTypeOf<P.CallToolRequest>().not.toBeAny();
    expectTypeOf<P.CallToolRequestParams>().not.toBeAny();
    expectTypeOf<P.CallToolResult>().not.toBeAny();
    expectTypeOf<P.CallToolResultResponse>().not.toBeAny();
    expectTypeOf<P.CancelledNotification>().not.toBeAny();
    expectTypeOf<P.CancelledNotificationParams>().not.toBeAny();
    expectTypeOf<P.ClientCapabilities>().not.toBeAny();
    expectTypeOf<P.ClientNotification>().not.toBeAny();
    expectTypeOf<P.ClientRequest>().not.toBeAny();
    expectTypeOf<P.ClientResult>().not.toBeAny();
    expectTypeOf<P.CompleteRequest>().not.toBeAny();
    expectTypeOf<P.CompleteRequestParams>().not.toBeAny();
    expectTypeOf<P.CompleteResult>().not.toBeAny();
    expectTypeOf<P.CompleteResultResponse>().not.toBeAny();
    expectTypeOf<P.ContentBlock>().not.toBeAny();
    expectTypeOf<P.CreateMessageRequest>().not.toBeAny();
    expectTypeOf<P.CreateMessageRequestParams>().not.toBeAny();
    expectTypeOf<P.CreateMessageResult>().not.toBeAny();
    expectTypeOf<P.Cursor>().not.toBeAny();
    expectTypeOf<P.DiscoverRequest>().not.toBeAny();
    expectTypeOf<P.DiscoverResult>().not.toBeAny();
    expectTypeOf<P.DiscoverResultResponse>().not.toBeAny();
    expectTypeOf<P.ElicitRequest>().not.toBeAny();
    expectTypeOf<P.ElicitRequestFormParams>().not.toBeAny();
    expectTypeOf<P.ElicitRequestParams>().not.toBeAny();
    expectTypeOf<P.ElicitRequestURLParams>().not.toBeAny();
    expectTypeOf<P.ElicitResult>().not.toBeAny();
    expectTypeOf<P.EmbeddedResource>().not.toBeAny();
    expectTypeOf<P.EmptyResult>().not.toBeAny();
    expectTypeOf<P.EnumSchema>().not.toBeAny();
    expectTypeOf<P.Error>().not.toBeAny();
    expectTypeOf<P.GetPromptRequest>().not.toBeAny();
    expectTypeOf<P.GetPromptRequestParams>().not.toBeAny();
    expectTypeOf<P.GetPromptResult>().not.toBeAny();
    expectTypeOf<P.GetPromptResultResponse>().not.toBeAny();
    expectTypeOf<P.HeaderMismatchError>().not.toBeAny();
    expectTypeOf<P.Icon>().not.toBeAny();
    expectTypeOf<P.Icons>().not.toBeAny();
    expectTypeOf<P.ImageContent>().not.toBeAny();
    expectTypeOf<P.Implementation>().not.toBeAny();
    expectTypeOf<P.InputRequest>().not.toBeAny();
    expectTypeOf<P.InputRequests>().not.toBeAny();
    expectTypeOf<P.InputRequiredResult>().not.toBeAny();
    expectTypeOf<P.InputResponse>().not.toBeAny();
    expectTypeOf<P.InputResponseRequestParams>().not.toBeAny();
    expectTypeOf<P.InputResponses>().not.toBeAny();
    expectTypeOf<P.InternalError>().not.toBeAny();
    expectTypeOf<P.InvalidParamsError>().not.toBeAny();
    expectTypeOf<P.InvalidRequestError>().not.toBeAny();
    expectTypeOf<P.JSONArray>().not.toBeAny();
    expectTypeOf<P.JSONObject>().not.toBeAny();
    expectTypeOf<P.JSONRPCErrorResponse>().not.toBeAny();
    expectTypeOf<P.JSONRPCMessage>().not.toBeAny();
    expectTypeOf<P.JSONRPCNotification>().not.toBeAny();
    expectTypeOf<P.JSONRPCRequest>().not.toBeAny();
    expectTypeOf<P.JSONRPCResponse>().not.toBeAny();
    expectTypeOf<P.JSONRPCResultResponse>().not.toBeAny();
    expectTypeOf<P.JSONValue>().not.toBeAny();
    expectTypeOf<P.LegacyTitledEnumSchema>().not.toBeAny();
    expectTypeOf<P.ListPromptsRequest>().not.toBeAny();
    expectTypeOf<P.ListPromptsResult>().not.toBeAny();
    expectTypeOf<P.ListPromptsResultResponse>().not.toBeAny();
    expectTypeOf<P.ListResourceTemplatesRequest>().not.toBeAny();
    expectTypeOf<P.ListResourceTemplatesResult>().not.toBeAny();
    expectTypeOf<P.ListResourceTemplatesResultResponse>().not.toBeAny();
    expectTypeOf<P.ListResourcesRequest>().not.toBeAny();
    expectTypeOf<P.ListResourcesResult>().not.toBeAny();
    expectTypeOf<P.ListResourcesResultResponse>().not.toBeAny();
    expectTypeOf<P.ListRootsRequest>().not.toBeAny();
    expectTypeOf<P.ListRootsResult>().not.toBeAny();
    expectTypeOf<P.ListToolsRequest>().not.toBeAny();
    expectTypeOf<P.ListToolsResult>().not.toBeAny();
    expectTypeOf<P.ListToolsResultResponse>().not.toBeAny();
    expectTypeOf<P.LoggingLevel>().not.toBeAny();
    expectTypeOf<P.LoggingMessageNotification>().not.toBeAny();
    expectTypeOf<P.LoggingMessageNotificationParams>().not.toBeAny();
    expectTypeOf<P.MetaObject>().not.toBeAny();
    expectTypeOf<P.MethodNotFoundError>().not.toBeAny();
    expectTypeOf<P.MissingRequiredClientCapabilityError>().not.toBeAny();
    expectTypeOf<P.ModelHint>().not.toBeAny();
    expectTypeOf<P.ModelPreferences>().not.toBeAny();
    expectTypeOf<P.MultiSelectEnumSchema>().not.toBeAny();
    expectTypeOf<P.Notification>().not.toBeAny();
    expectTypeOf<P.NotificationMetaObject>().not.toBeAny();
    expectTypeOf<P.NotificationParams>().not.toBeAny();
    expectTypeOf<P.NumberSchema>().not.toBeAny();
    expectTypeOf<P.PaginatedRequest>().not.toBeAny();
    expectTypeOf<P.PaginatedRequestParams>().not.toBeAny();
    expectTypeOf<P.PaginatedResult>().not.toBeAny();
    expectTypeOf<P.ParseError>().not.toBeAny();
    expectTypeOf<P.PrimitiveSchemaDefinition>().not.toBeAny();
    expectTypeOf<P.ProgressNotification>().not.toBeAny();
    expectTypeOf<P.ProgressNotificationParams>().not.toBeAny();
    expectTypeOf<P.ProgressToken>().not.toBeAny();
    expectTypeOf<P.Prompt>().not.toBeAny();
    expectTypeOf<P.PromptArgument>().not.toBeAny();
    expectTypeOf<P.PromptListChangedNotification>().not.toBeAny();
    expectTypeOf<P.PromptMessage>().not.toBeAny();
    expectTypeOf<P.PromptReference>().not.toBeAny();
    expectTypeOf<P.ReadResourceRequest>().not.toBeAny();
    expectTypeOf<P.ReadResourceRequestParams>().not.toBeAny();
    expectTypeOf<P.ReadResourceResult>().not.toBeAny();
    expectTypeOf<P.ReadResourceResultResponse>().not.toBeAny();
    expectTypeOf<P.Request>().not.toBeAny();
    expectTypeOf<P.RequestId>().not.toBeAny();
    expectTypeOf<P.RequestMetaObject>().not.toBeAny();
    expectTypeOf<P.RequestParams>().not.toBeAny();
    expectTypeOf<P.Resource>().not.toBeAny();
    expectTypeOf<P.ResourceContents>().not.toBeAny();
    expectTypeOf<P.ResourceLink>().not.toBeAny();
    expectTypeOf<P.ResourceListChangedNotification>().not.toBeAny();
    expectTypeOf<P.ResourceRequestParams>().not.toBeAny();
    expectTypeOf<P.ResourceTemplate>().not.toBeAny();
    expectTypeOf<P.ResourceTemplateReference>().not.toBeAny();
    expectTypeOf<P.ResourceUpdatedNotification>().not.toBeAny();
    expectTypeOf<P.ResourceUpdatedNotificationParams>().not.toBeAny();
    expectTypeOf<P.Result>().not.toBeAny();
    expectTypeOf<P.ResultMetaObject>().not.toBeAny();
    expectTypeOf<P.ResultType>().not.toBeAny();
    expectTypeOf<P.Role>().not.toBeAny();
    expectTypeOf<P.Root>().not.toBeAny();
    expectTypeOf<P.SamplingMessage>().not.toBeAny();
    expectTypeOf<P.SamplingMessageContentBlock>().not.toBeAny();
    expectTypeOf<P.ServerCapabilities>().not.toBeAny();
    expectTypeOf<P.ServerNotification>().not.toBeAny();
    expectTypeOf<P.ServerResult>().not.toBeAny();
    expectTypeOf<P.SingleSelectEnumSchema>().not.toBeAny();
    expectTypeOf<P.StringSchema>().not.toBeAny();
    expectTypeOf<P.SubscriptionFilter>().not.toBeAny();
    expectTypeOf<P.SubscriptionsAcknowledgedNotification>().not.toBeAny();
    expectTypeOf<P.SubscriptionsAcknowledgedNotificationParams>().not.toBeAny();
    expectTypeOf<P.SubscriptionsListenRequest>().not.toBeAny();
    expectTypeOf<P.SubscriptionsListenRequestParams>().not.toBeAny();
    expectTypeOf<P.SubscriptionsListenResult>().not.toBeAny();
    expectTypeOf<P.SubscriptionsListenResultMetaObject>().not.toBeAny();
    expectTypeOf<P.SubscriptionsListenResultResponse>().not.toBeAny();
    expectTypeOf<P.TextContent>().not.toBeAny();
    expectTypeOf<P.TextResourceContents>().not.toBeAny();
    expectTypeOf<P.TitledMultiSelectEnumSchema>().not.toBeAny();
    expectTypeOf<P.TitledSingleSelectEnumSchema>().not.toBeAny();
    expectTypeOf<P.Tool>().not.toBeAny();
    expectTypeOf<P.ToolAnnotations>().not.toBeAny();
    expectTypeOf<P.ToolChoice>().not.toBeAny();
    expectTypeOf<P.ToolListChangedNotification>().not.toBeAny();
    expectTypeOf<P.ToolResultContent>().not.toBeAny();
    expectTypeOf<P.ToolUseContent>().not.toBeAny();
    expectTypeOf<P.UnsupportedProtocolVersionError>().not.toBeAny();
    expectTypeOf<P.UntitledMultiSelectEnumSchema>().not.toBeAny();
    expectTypeOf<P.UntitledSingleSelectEnumSchema>().not.toBeAny();
  });
});
