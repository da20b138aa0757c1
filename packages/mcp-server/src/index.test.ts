import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  McpServerNotification,
  McpServerOptions,
  RegisteredHandle,
  RequestContext,
  RequestStateSecurity,
  ResourceTemplateHandle,
  TemplateVariables,
  ToolHandle,
  ToolMetadata,
} from './index.js';
import * as api from './index.js';

describe('@boomerang/mcp-server', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'InvalidSignatureError',
      'McpServer',
      'ResolutionError',
      'elicit',
      'elicitResult',
      'elicitUrl',
      'elicitUrlResult',
      'listRoots',
      'resolver',
      'sample',
    ]);
  });

  it('exports its public types (checked by the typechecker)', () => {
    expectTypeOf<McpServerOptions['requestStateSecurity']>().toEqualTypeOf<
      RequestStateSecurity | undefined
    >();
    expectTypeOf<ToolHandle>().toEqualTypeOf<RegisteredHandle<ToolMetadata>>();
    expectTypeOf<ReturnType<api.McpServer['resourceTemplate']>>().toEqualTypeOf<ResourceTemplateHandle>();
    expectTypeOf<Parameters<api.McpServer['onNotification']>[0]>().toEqualTypeOf<
      (notification: McpServerNotification) => void
    >();
    expectTypeOf<TemplateVariables<'a://{b}'>>().toEqualTypeOf<{ b: string }>();
    expectTypeOf<Parameters<api.McpServer['handle']>[1]>().not.toBeAny();
    expectTypeOf<RequestContext['requestState']>().toEqualTypeOf<string | undefined>();
  });
});
