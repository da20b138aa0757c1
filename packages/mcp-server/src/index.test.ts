import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  McpServerOptions,
  MethodHandle,
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
      'McpServer',
      'ResolutionError',
      'ResolverGraphError',
      'SkillCatalogError',
      'elicit',
      'elicitResult',
      'elicitUrl',
      'elicitUrlResult',
      'listRoots',
      'memoryRateLimitStore',
      'memorySkillFiles',
      'rateLimit',
      'resolver',
      'sample',
      'skillCatalog',
      'withJsonSchema',
    ]);
  });

  it('exports its public types (checked by the typechecker)', () => {
    expectTypeOf<McpServerOptions['requestStateSecurity']>().toEqualTypeOf<
      RequestStateSecurity | undefined
    >();
    expectTypeOf<ToolHandle>().toEqualTypeOf<RegisteredHandle<ToolMetadata>>();
    expectTypeOf<ReturnType<api.McpServer['resourceTemplate']>>().toEqualTypeOf<ResourceTemplateHandle>();
    expectTypeOf<ReturnType<api.McpServer['method']>>().toEqualTypeOf<MethodHandle>();
    expectTypeOf<McpServerOptions['legacy']>().toEqualTypeOf<
      boolean | { readonly requestTimeoutMs?: number | undefined } | undefined
    >();
    expectTypeOf<TemplateVariables<'a://{b}'>>().toEqualTypeOf<{ b: string }>();
    expectTypeOf<Parameters<api.McpServer['handle']>[1]>().not.toBeAny();
    expectTypeOf<RequestContext['requestState']>().toEqualTypeOf<string | undefined>();
  });
});
