// @boomerang/protocol: the types of every MCP 2026-07-28 message, its constants and error codes, and the helpers a
// server or client author uses (building and reading results, validating with any Standard Schema). The zod
// schemas are at @boomerang/protocol/schemas, what transport implementations need at @boomerang/protocol/transport,
// the 2025-11-25 revision at @boomerang/protocol/2025-11-25.

// --- constants

export {
  CACHEABLE_METHODS,
  type CacheableMethod,
  INPUT_REQUIRED_METHODS,
  type InputRequiredMethod,
  isCacheableMethod,
  isInputRequiredMethod,
  isLoggingLevel,
  LATEST_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  MetaKey,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './constants.js';

// --- errors

export {
  ErrorCode,
  type ErrorCodeName,
  isTransportFailure,
  type JsonRpcErrorObject,
  McpError,
  type TransportFailureData,
  transportFailureData,
} from './errors.js';

// --- results and the questions a server asks

export {
  createMessageRequest,
  type ElicitFormInit,
  type ElicitUrlInit,
  elicitRequest,
  elicitUrlRequest,
  listRootsRequest,
} from './input-requests.js';
export {
  type InputRequiredInit,
  inputRequired,
  isInputRequired,
  normalizeResult,
  type ResultKind,
  resultTypeOf,
} from './result.js';

// --- argument guards

export { argumentError, describeType } from './guards.js';
export { isPlainObject } from './jsonrpc.js';
export { isThenable } from './thenable.js';

// --- validation with any Standard Schema

export {
  describeIssues,
  isStandardSchemaV1,
  type SchemaIssue,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
  type Validation,
  validate,
} from './validation.js';

// --- who is calling (the transport contracts themselves: @boomerang/protocol/transport)

export { type Principal, principalOf } from './principal.js';
export type { AuthInfo } from './transport.js';

// --- where what never reaches the wire is reported

export type { LogFn, Logger } from './logger.js';

// --- extensions

export { type ExtensionCapabilities, extensionSettings, hasExtension } from './extensions.js';

// --- the tasks extension's names and guards (its types and zod schemas: @boomerang/protocol/tasks)

export { isTaskStatus, isTerminal, TASK_STATUSES, TASKS_EXTENSION } from './tasks/task.js';

// --- the types of every MCP 2026-07-28 message (their zod schemas: @boomerang/protocol/schemas)

export type {
  Annotations,
  AudioContent,
  BaseMetadata,
  BlobResourceContents,
  BooleanSchema,
  CacheableResult,
  CallToolRequest,
  CallToolRequestParams,
  CallToolResult,
  CallToolResultResponse,
  CancelledNotification,
  CancelledNotificationParams,
  ClientCapabilities,
  ClientNotification,
  ClientRequest,
  ClientResult,
  CompleteRequest,
  CompleteRequestParams,
  CompleteResult,
  CompleteResultResponse,
  ContentBlock,
  CreateMessageRequest,
  CreateMessageRequestParams,
  CreateMessageResult,
  Cursor,
  DiscoverRequest,
  DiscoverResult,
  DiscoverResultResponse,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  EmbeddedResource,
  EmptyResult,
  EnumSchema,
  ErrorObject,
  GetPromptRequest,
  GetPromptRequestParams,
  GetPromptResult,
  GetPromptResultResponse,
  HeaderMismatchError,
  Icon,
  Icons,
  ImageContent,
  Implementation,
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponse,
  InputResponseRequestParams,
  InputResponses,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  JSONArray,
  JSONObject,
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  JSONRPCResultResponse,
  JSONValue,
  LegacyTitledEnumSchema,
  ListPromptsRequest,
  ListPromptsResult,
  ListPromptsResultResponse,
  ListResourcesRequest,
  ListResourcesResult,
  ListResourcesResultResponse,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ListResourceTemplatesResultResponse,
  ListRootsRequest,
  ListRootsResult,
  ListToolsRequest,
  ListToolsResult,
  ListToolsResultResponse,
  LoggingLevel,
  LoggingMessageNotification,
  LoggingMessageNotificationParams,
  MetaObject,
  MethodNotFoundError,
  MissingRequiredClientCapabilityError,
  ModelHint,
  ModelPreferences,
  MultiSelectEnumSchema,
  Notification,
  NotificationMetaObject,
  NotificationParams,
  NumberSchema,
  PaginatedRequest,
  PaginatedRequestParams,
  PaginatedResult,
  ParseError,
  PrimitiveSchemaDefinition,
  ProgressNotification,
  ProgressNotificationParams,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptListChangedNotification,
  PromptMessage,
  PromptReference,
  ReadResourceRequest,
  ReadResourceRequestParams,
  ReadResourceResult,
  ReadResourceResultResponse,
  Request,
  RequestId,
  RequestMetaObject,
  RequestParams,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceListChangedNotification,
  ResourceRequestParams,
  ResourceTemplate,
  ResourceTemplateReference,
  ResourceUpdatedNotification,
  ResourceUpdatedNotificationParams,
  Result,
  ResultMetaObject,
  ResultType,
  Role,
  Root,
  SamplingMessage,
  SamplingMessageContentBlock,
  ServerCapabilities,
  ServerNotification,
  ServerResult,
  SingleSelectEnumSchema,
  StringSchema,
  SubscriptionFilter,
  SubscriptionsAcknowledgedNotification,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequest,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
  SubscriptionsListenResultMetaObject,
  SubscriptionsListenResultResponse,
  TextContent,
  TextResourceContents,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  Tool,
  ToolAnnotations,
  ToolChoice,
  ToolListChangedNotification,
  ToolResultContent,
  ToolUseContent,
  UnsupportedProtocolVersionError,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from './schema/index.js';
