// Type-level guard: every $defs type is exported as `<Name>`, equal to the output of `<Name>Schema`, and none
// is `any`. Checked by `tsc` (typecheck); the list mirrors schema.json's $defs.
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type * as P from '../index.js';
import type * as S from '../schemas.js';

describe('exported types', () => {
  it("equal their schemas' output", () => {
    expectTypeOf<P.Annotations>().toEqualTypeOf<z.output<typeof S.AnnotationsSchema>>();
    expectTypeOf<P.AudioContent>().toEqualTypeOf<z.output<typeof S.AudioContentSchema>>();
    expectTypeOf<P.BaseMetadata>().toEqualTypeOf<z.output<typeof S.BaseMetadataSchema>>();
    expectTypeOf<P.BlobResourceContents>().toEqualTypeOf<z.output<typeof S.BlobResourceContentsSchema>>();
    expectTypeOf<P.BooleanSchema>().toEqualTypeOf<z.output<typeof S.BooleanSchemaSchema>>();
    expectTypeOf<P.CacheableResult>().toEqualTypeOf<z.output<typeof S.CacheableResultSchema>>();
    expectTypeOf<P.CallToolRequest>().toEqualTypeOf<z.output<typeof S.CallToolRequestSchema>>();
    expectTypeOf<P.CallToolRequestParams>().toEqualTypeOf<z.output<typeof S.CallToolRequestParamsSchema>>();
    expectTypeOf<P.CallToolResult>().toEqualTypeOf<z.output<typeof S.CallToolResultSchema>>();
    expectTypeOf<P.CallToolResultResponse>().toEqualTypeOf<z.output<typeof S.CallToolResultResponseSchema>>();
    expectTypeOf<P.CancelledNotification>().toEqualTypeOf<z.output<typeof S.CancelledNotificationSchema>>();
    expectTypeOf<P.CancelledNotificationParams>().toEqualTypeOf<
      z.output<typeof S.CancelledNotificationParamsSchema>
    >();
    expectTypeOf<P.ClientCapabilities>().toEqualTypeOf<z.output<typeof S.ClientCapabilitiesSchema>>();
    expectTypeOf<P.ClientNotification>().toEqualTypeOf<z.output<typeof S.ClientNotificationSchema>>();
    expectTypeOf<P.ClientRequest>().toEqualTypeOf<z.output<typeof S.ClientRequestSchema>>();
    expectTypeOf<P.ClientResult>().toEqualTypeOf<z.output<typeof S.ClientResultSchema>>();
    expectTypeOf<P.CompleteRequest>().toEqualTypeOf<z.output<typeof S.CompleteRequestSchema>>();
    expectTypeOf<P.CompleteRequestParams>().toEqualTypeOf<z.output<typeof S.CompleteRequestParamsSchema>>();
    expectTypeOf<P.CompleteResult>().toEqualTypeOf<z.output<typeof S.CompleteResultSchema>>();
    expectTypeOf<P.CompleteResultResponse>().toEqualTypeOf<z.output<typeof S.CompleteResultResponseSchema>>();
    expectTypeOf<P.ContentBlock>().toEqualTypeOf<z.output<typeof S.ContentBlockSchema>>();
    expectTypeOf<P.CreateMessageRequest>().toEqualTypeOf<z.output<typeof S.CreateMessageRequestSchema>>();
    expectTypeOf<P.CreateMessageRequestParams>().toEqualTypeOf<
      z.output<typeof S.CreateMessageRequestParamsSchema>
    >();
    expectTypeOf<P.CreateMessageResult>().toEqualTypeOf<z.output<typeof S.CreateMessageResultSchema>>();
    expectTypeOf<P.Cursor>().toEqualTypeOf<z.output<typeof S.CursorSchema>>();
    expectTypeOf<P.DiscoverRequest>().toEqualTypeOf<z.output<typeof S.DiscoverRequestSchema>>();
    expectTypeOf<P.DiscoverResult>().toEqualTypeOf<z.output<typeof S.DiscoverResultSchema>>();
    expectTypeOf<P.DiscoverResultResponse>().toEqualTypeOf<z.output<typeof S.DiscoverResultResponseSchema>>();
    expectTypeOf<P.ElicitRequest>().toEqualTypeOf<z.output<typeof S.ElicitRequestSchema>>();
    expectTypeOf<P.ElicitRequestFormParams>().toEqualTypeOf<
      z.output<typeof S.ElicitRequestFormParamsSchema>
    >();
    expectTypeOf<P.ElicitRequestParams>().toEqualTypeOf<z.output<typeof S.ElicitRequestParamsSchema>>();
    expectTypeOf<P.ElicitRequestURLParams>().toEqualTypeOf<z.output<typeof S.ElicitRequestURLParamsSchema>>();
    expectTypeOf<P.ElicitResult>().toEqualTypeOf<z.output<typeof S.ElicitResultSchema>>();
    expectTypeOf<P.EmbeddedResource>().toEqualTypeOf<z.output<typeof S.EmbeddedResourceSchema>>();
    expectTypeOf<P.EmptyResult>().toEqualTypeOf<z.output<typeof S.EmptyResultSchema>>();
    expectTypeOf<P.EnumSchema>().toEqualTypeOf<z.output<typeof S.EnumSchemaSchema>>();
    expectTypeOf<P.ErrorObject>().toEqualTypeOf<z.output<typeof S.ErrorSchema>>();
    expectTypeOf<P.GetPromptRequest>().toEqualTypeOf<z.output<typeof S.GetPromptRequestSchema>>();
    expectTypeOf<P.GetPromptRequestParams>().toEqualTypeOf<z.output<typeof S.GetPromptRequestParamsSchema>>();
    expectTypeOf<P.GetPromptResult>().toEqualTypeOf<z.output<typeof S.GetPromptResultSchema>>();
    expectTypeOf<P.GetPromptResultResponse>().toEqualTypeOf<
      z.output<typeof S.GetPromptResultResponseSchema>
    >();
    expectTypeOf<P.HeaderMismatchError>().toEqualTypeOf<z.output<typeof S.HeaderMismatchErrorSchema>>();
    expectTypeOf<P.Icon>().toEqualTypeOf<z.output<typeof S.IconSchema>>();
    expectTypeOf<P.Icons>().toEqualTypeOf<z.output<typeof S.IconsSchema>>();
    expectTypeOf<P.ImageContent>().toEqualTypeOf<z.output<typeof S.ImageContentSchema>>();
    expectTypeOf<P.Implementation>().toEqualTypeOf<z.output<typeof S.ImplementationSchema>>();
    expectTypeOf<P.InputRequest>().toEqualTypeOf<z.output<typeof S.InputRequestSchema>>();
    expectTypeOf<P.InputRequests>().toEqualTypeOf<z.output<typeof S.InputRequestsSchema>>();
    expectTypeOf<P.InputRequiredResult>().toEqualTypeOf<z.output<typeof S.InputRequiredResultSchema>>();
    expectTypeOf<P.InputResponse>().toEqualTypeOf<z.output<typeof S.InputResponseSchema>>();
    expectTypeOf<P.InputResponseRequestParams>().toEqualTypeOf<
      z.output<typeof S.InputResponseRequestParamsSchema>
    >();
    expectTypeOf<P.InputResponses>().toEqualTypeOf<z.output<typeof S.InputResponsesSchema>>();
    expectTypeOf<P.InternalError>().toEqualTypeOf<z.output<typeof S.InternalErrorSchema>>();
    expectTypeOf<P.InvalidParamsError>().toEqualTypeOf<z.output<typeof S.InvalidParamsErrorSchema>>();
    expectTypeOf<P.InvalidRequestError>().toEqualTypeOf<z.output<typeof S.InvalidRequestErrorSchema>>();
    expectTypeOf<P.JSONArray>().toEqualTypeOf<z.output<typeof S.JSONArraySchema>>();
    expectTypeOf<P.JSONObject>().toEqualTypeOf<z.output<typeof S.JSONObjectSchema>>();
    expectTypeOf<P.JSONRPCErrorResponse>().toEqualTypeOf<z.output<typeof S.JSONRPCErrorResponseSchema>>();
    expectTypeOf<P.JSONRPCMessage>().toEqualTypeOf<z.output<typeof S.JSONRPCMessageSchema>>();
    expectTypeOf<P.JSONRPCNotification>().toEqualTypeOf<z.output<typeof S.JSONRPCNotificationSchema>>();
    expectTypeOf<P.JSONRPCRequest>().toEqualTypeOf<z.output<typeof S.JSONRPCRequestSchema>>();
    expectTypeOf<P.JSONRPCResponse>().toEqualTypeOf<z.output<typeof S.JSONRPCResponseSchema>>();
    expectTypeOf<P.JSONRPCResultResponse>().toEqualTypeOf<z.output<typeof S.JSONRPCResultResponseSchema>>();
    expectTypeOf<P.JSONValue>().toEqualTypeOf<z.output<typeof S.JSONValueSchema>>();
    expectTypeOf<P.LegacyTitledEnumSchema>().toEqualTypeOf<z.output<typeof S.LegacyTitledEnumSchemaSchema>>();
    expectTypeOf<P.ListPromptsRequest>().toEqualTypeOf<z.output<typeof S.ListPromptsRequestSchema>>();
    expectTypeOf<P.ListPromptsResult>().toEqualTypeOf<z.output<typeof S.ListPromptsResultSchema>>();
    expectTypeOf<P.ListPromptsResultResponse>().toEqualTypeOf<
      z.output<typeof S.ListPromptsResultResponseSchema>
    >();
    expectTypeOf<P.ListResourceTemplatesRequest>().toEqualTypeOf<
      z.output<typeof S.ListResourceTemplatesRequestSchema>
    >();
    expectTypeOf<P.ListResourceTemplatesResult>().toEqualTypeOf<
      z.output<typeof S.ListResourceTemplatesResultSchema>
    >();
    expectTypeOf<P.ListResourceTemplatesResultResponse>().toEqualTypeOf<
      z.output<typeof S.ListResourceTemplatesResultResponseSchema>
    >();
    expectTypeOf<P.ListResourcesRequest>().toEqualTypeOf<z.output<typeof S.ListResourcesRequestSchema>>();
    expectTypeOf<P.ListResourcesResult>().toEqualTypeOf<z.output<typeof S.ListResourcesResultSchema>>();
    expectTypeOf<P.ListResourcesResultResponse>().toEqualTypeOf<
      z.output<typeof S.ListResourcesResultResponseSchema>
    >();
    expectTypeOf<P.ListRootsRequest>().toEqualTypeOf<z.output<typeof S.ListRootsRequestSchema>>();
    expectTypeOf<P.ListRootsResult>().toEqualTypeOf<z.output<typeof S.ListRootsResultSchema>>();
    expectTypeOf<P.ListToolsRequest>().toEqualTypeOf<z.output<typeof S.ListToolsRequestSchema>>();
    expectTypeOf<P.ListToolsResult>().toEqualTypeOf<z.output<typeof S.ListToolsResultSchema>>();
    expectTypeOf<P.ListToolsResultResponse>().toEqualTypeOf<
      z.output<typeof S.ListToolsResultResponseSchema>
    >();
    expectTypeOf<P.LoggingLevel>().toEqualTypeOf<z.output<typeof S.LoggingLevelSchema>>();
    expectTypeOf<P.LoggingMessageNotification>().toEqualTypeOf<
      z.output<typeof S.LoggingMessageNotificationSchema>
    >();
    expectTypeOf<P.LoggingMessageNotificationParams>().toEqualTypeOf<
      z.output<typeof S.LoggingMessageNotificationParamsSchema>
    >();
    expectTypeOf<P.MetaObject>().toEqualTypeOf<z.output<typeof S.MetaObjectSchema>>();
    expectTypeOf<P.MethodNotFoundError>().toEqualTypeOf<z.output<typeof S.MethodNotFoundErrorSchema>>();
    expectTypeOf<P.MissingRequiredClientCapabilityError>().toEqualTypeOf<
      z.output<typeof S.MissingRequiredClientCapabilityErrorSchema>
    >();
    expectTypeOf<P.ModelHint>().toEqualTypeOf<z.output<typeof S.ModelHintSchema>>();
    expectTypeOf<P.ModelPreferences>().toEqualTypeOf<z.output<typeof S.ModelPreferencesSchema>>();
    expectTypeOf<P.MultiSelectEnumSchema>().toEqualTypeOf<z.output<typeof S.MultiSelectEnumSchemaSchema>>();
    expectTypeOf<P.Notification>().toEqualTypeOf<z.output<typeof S.NotificationSchema>>();
    expectTypeOf<P.NotificationMetaObject>().toEqualTypeOf<z.output<typeof S.NotificationMetaObjectSchema>>();
    expectTypeOf<P.NotificationParams>().toEqualTypeOf<z.output<typeof S.NotificationParamsSchema>>();
    expectTypeOf<P.NumberSchema>().toEqualTypeOf<z.output<typeof S.NumberSchemaSchema>>();
    expectTypeOf<P.PaginatedRequest>().toEqualTypeOf<z.output<typeof S.PaginatedRequestSchema>>();
    expectTypeOf<P.PaginatedRequestParams>().toEqualTypeOf<z.output<typeof S.PaginatedRequestParamsSchema>>();
    expectTypeOf<P.PaginatedResult>().toEqualTypeOf<z.output<typeof S.PaginatedResultSchema>>();
    expectTypeOf<P.ParseError>().toEqualTypeOf<z.output<typeof S.ParseErrorSchema>>();
    expectTypeOf<P.PrimitiveSchemaDefinition>().toEqualTypeOf<
      z.output<typeof S.PrimitiveSchemaDefinitionSchema>
    >();
    expectTypeOf<P.ProgressNotification>().toEqualTypeOf<z.output<typeof S.ProgressNotificationSchema>>();
    expectTypeOf<P.ProgressNotificationParams>().toEqualTypeOf<
      z.output<typeof S.ProgressNotificationParamsSchema>
    >();
    expectTypeOf<P.ProgressToken>().toEqualTypeOf<z.output<typeof S.ProgressTokenSchema>>();
    expectTypeOf<P.Prompt>().toEqualTypeOf<z.output<typeof S.PromptSchema>>();
    expectTypeOf<P.PromptArgument>().toEqualTypeOf<z.output<typeof S.PromptArgumentSchema>>();
    expectTypeOf<P.PromptListChangedNotification>().toEqualTypeOf<
      z.output<typeof S.PromptListChangedNotificationSchema>
    >();
    expectTypeOf<P.PromptMessage>().toEqualTypeOf<z.output<typeof S.PromptMessageSchema>>();
    expectTypeOf<P.PromptReference>().toEqualTypeOf<z.output<typeof S.PromptReferenceSchema>>();
    expectTypeOf<P.ReadResourceRequest>().toEqualTypeOf<z.output<typeof S.ReadResourceRequestSchema>>();
    expectTypeOf<P.ReadResourceRequestParams>().toEqualTypeOf<
      z.output<typeof S.ReadResourceRequestParamsSchema>
    >();
    expectTypeOf<P.ReadResourceResult>().toEqualTypeOf<z.output<typeof S.ReadResourceResultSchema>>();
    expectTypeOf<P.ReadResourceResultResponse>().toEqualTypeOf<
      z.output<typeof S.ReadResourceResultResponseSchema>
    >();
    expectTypeOf<P.Request>().toEqualTypeOf<z.output<typeof S.RequestSchema>>();
    expectTypeOf<P.RequestId>().toEqualTypeOf<z.output<typeof S.RequestIdSchema>>();
    expectTypeOf<P.RequestMetaObject>().toEqualTypeOf<z.output<typeof S.RequestMetaObjectSchema>>();
    expectTypeOf<P.RequestParams>().toEqualTypeOf<z.output<typeof S.RequestParamsSchema>>();
    expectTypeOf<P.Resource>().toEqualTypeOf<z.output<typeof S.ResourceSchema>>();
    expectTypeOf<P.ResourceContents>().toEqualTypeOf<z.output<typeof S.ResourceContentsSchema>>();
    expectTypeOf<P.ResourceLink>().toEqualTypeOf<z.output<typeof S.ResourceLinkSchema>>();
    expectTypeOf<P.ResourceListChangedNotification>().toEqualTypeOf<
      z.output<typeof S.ResourceListChangedNotificationSchema>
    >();
    expectTypeOf<P.ResourceRequestParams>().toEqualTypeOf<z.output<typeof S.ResourceRequestParamsSchema>>();
    expectTypeOf<P.ResourceTemplate>().toEqualTypeOf<z.output<typeof S.ResourceTemplateSchema>>();
    expectTypeOf<P.ResourceTemplateReference>().toEqualTypeOf<
      z.output<typeof S.ResourceTemplateReferenceSchema>
    >();
    expectTypeOf<P.ResourceUpdatedNotification>().toEqualTypeOf<
      z.output<typeof S.ResourceUpdatedNotificationSchema>
    >();
    expectTypeOf<P.ResourceUpdatedNotificationParams>().toEqualTypeOf<
      z.output<typeof S.ResourceUpdatedNotificationParamsSchema>
    >();
    expectTypeOf<P.Result>().toEqualTypeOf<z.output<typeof S.ResultSchema>>();
    expectTypeOf<P.ResultMetaObject>().toEqualTypeOf<z.output<typeof S.ResultMetaObjectSchema>>();
    expectTypeOf<P.ResultType>().toEqualTypeOf<z.output<typeof S.ResultTypeSchema>>();
    expectTypeOf<P.Role>().toEqualTypeOf<z.output<typeof S.RoleSchema>>();
    expectTypeOf<P.Root>().toEqualTypeOf<z.output<typeof S.RootSchema>>();
    expectTypeOf<P.SamplingMessage>().toEqualTypeOf<z.output<typeof S.SamplingMessageSchema>>();
    expectTypeOf<P.SamplingMessageContentBlock>().toEqualTypeOf<
      z.output<typeof S.SamplingMessageContentBlockSchema>
    >();
    expectTypeOf<P.ServerCapabilities>().toEqualTypeOf<z.output<typeof S.ServerCapabilitiesSchema>>();
    expectTypeOf<P.ServerNotification>().toEqualTypeOf<z.output<typeof S.ServerNotificationSchema>>();
    expectTypeOf<P.ServerResult>().toEqualTypeOf<z.output<typeof S.ServerResultSchema>>();
    expectTypeOf<P.SingleSelectEnumSchema>().toEqualTypeOf<z.output<typeof S.SingleSelectEnumSchemaSchema>>();
    expectTypeOf<P.StringSchema>().toEqualTypeOf<z.output<typeof S.StringSchemaSchema>>();
    expectTypeOf<P.SubscriptionFilter>().toEqualTypeOf<z.output<typeof S.SubscriptionFilterSchema>>();
    expectTypeOf<P.SubscriptionsAcknowledgedNotification>().toEqualTypeOf<
      z.output<typeof S.SubscriptionsAcknowledgedNotificationSchema>
    >();
    expectTypeOf<P.SubscriptionsAcknowledgedNotificationParams>().toEqualTypeOf<
      z.output<typeof S.SubscriptionsAcknowledgedNotificationParamsSchema>
    >();
    expectTypeOf<P.SubscriptionsListenRequest>().toEqualTypeOf<
      z.output<typeof S.SubscriptionsListenRequestSchema>
    >();
    expectTypeOf<P.SubscriptionsListenRequestParams>().toEqualTypeOf<
      z.output<typeof S.SubscriptionsListenRequestParamsSchema>
    >();
    expectTypeOf<P.SubscriptionsListenResult>().toEqualTypeOf<
      z.output<typeof S.SubscriptionsListenResultSchema>
    >();
    expectTypeOf<P.SubscriptionsListenResultMetaObject>().toEqualTypeOf<
      z.output<typeof S.SubscriptionsListenResultMetaObjectSchema>
    >();
    expectTypeOf<P.SubscriptionsListenResultResponse>().toEqualTypeOf<
      z.output<typeof S.SubscriptionsListenResultResponseSchema>
    >();
    expectTypeOf<P.TextContent>().toEqualTypeOf<z.output<typeof S.TextContentSchema>>();
    expectTypeOf<P.TextResourceContents>().toEqualTypeOf<z.output<typeof S.TextResourceContentsSchema>>();
    expectTypeOf<P.TitledMultiSelectEnumSchema>().toEqualTypeOf<
      z.output<typeof S.TitledMultiSelectEnumSchemaSchema>
    >();
    expectTypeOf<P.TitledSingleSelectEnumSchema>().toEqualTypeOf<
      z.output<typeof S.TitledSingleSelectEnumSchemaSchema>
    >();
    expectTypeOf<P.Tool>().toEqualTypeOf<z.output<typeof S.ToolSchema>>();
    expectTypeOf<P.ToolAnnotations>().toEqualTypeOf<z.output<typeof S.ToolAnnotationsSchema>>();
    expectTypeOf<P.ToolChoice>().toEqualTypeOf<z.output<typeof S.ToolChoiceSchema>>();
    expectTypeOf<P.ToolListChangedNotification>().toEqualTypeOf<
      z.output<typeof S.ToolListChangedNotificationSchema>
    >();
    expectTypeOf<P.ToolResultContent>().toEqualTypeOf<z.output<typeof S.ToolResultContentSchema>>();
    expectTypeOf<P.ToolUseContent>().toEqualTypeOf<z.output<typeof S.ToolUseContentSchema>>();
    expectTypeOf<P.UnsupportedProtocolVersionError>().toEqualTypeOf<
      z.output<typeof S.UnsupportedProtocolVersionErrorSchema>
    >();
    expectTypeOf<P.UntitledMultiSelectEnumSchema>().toEqualTypeOf<
      z.output<typeof S.UntitledMultiSelectEnumSchemaSchema>
    >();
    expectTypeOf<P.UntitledSingleSelectEnumSchema>().toEqualTypeOf<
      z.output<typeof S.UntitledSingleSelectEnumSchemaSchema>
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
    expectTypeOf<P.ErrorObject>().not.toBeAny();
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
