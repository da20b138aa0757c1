// The Chromium tests' host page: an AppHost over a Boomerang client (HTTP to the harness's endpoint), recording
// everything its hooks see, plus a second client without Apps (a host that only has forms). The test drives it
// through `window.harness` and reads `events`.
import { Client, type ElicitAnswer, type ElicitationCallback } from '@boomerang/client';
import type { ElicitRequestParams } from '@boomerang/protocol';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { startHost } from '../host/host.examples.js';
import { APPS_CLIENT_CAPABILITIES, AppHost, type AppView } from '../host/index.js';

type Outcome =
  | { ok: true; text: string; view?: string | undefined }
  | { ok: false; code?: number | undefined; message: string; view?: string | undefined };

const events: { kind: string; detail: unknown }[] = [];
const formAnswers: ElicitAnswer[] = [];
const formAsked: ElicitRequestParams[] = [];
const views = new Map<string, AppView>();
const container = document.getElementById('views') as HTMLElement;
const form: ElicitationCallback = (params) => {
  formAsked.push(params);
  return formAnswers.shift() ?? { action: 'cancel' };
};
const record = (kind: string) => (detail: unknown) => {
  events.push({ kind, detail: JSON.parse(JSON.stringify(detail ?? null)) });
};

let client: Client;
let formsOnly: Client;
let host: AppHost;
let example: { client: Client } | undefined;

async function outcome(run: () => Promise<{ content: unknown[] }>, view?: AppView): Promise<Outcome> {
  try {
    const result = await run();
    const first = result.content[0] as { text?: string } | undefined;
    return view === undefined
      ? { ok: true, text: first?.text ?? '' }
      : { ok: true, text: first?.text ?? '', view: view.resourceUri };
  } catch (error) {
    const { code, message } = error as { code?: number; message: string };
    return { ok: false, code, message };
  }
}

const harness = {
  events,
  formAnswers,
  formAsked,
  async connect(endpoint: string, sandboxUrl: string): Promise<void> {
    host = new AppHost({
      client: () => client,
      sandboxUrl,
      onOpenLink: (url) => record('open-link')(url.href),
      onMessage: record('message'),
      onModelContext: record('model-context'),
      onLog: record('log'),
      onSizeChange: record('size'),
      onReject: (reason) => record('reject')(reason),
    });
    client = new Client(
      { name: 'apps-host', version: '1' },
      { capabilities: APPS_CLIENT_CAPABILITIES, elicitation: host.elicitation(form, () => container) },
    );
    formsOnly = new Client({ name: 'forms-host', version: '1' }, { elicitation: form });
    await client.connect(new StreamableHttpClientTransport(new URL(endpoint)));
    await formsOnly.connect(new StreamableHttpClientTransport(new URL(endpoint)));
  },
  async renderTool(name: string, args: Record<string, unknown> = {}): Promise<Outcome> {
    const { tools } = await client.listTools();
    const tool = tools.find((t: { name: string }) => t.name === name);
    if (tool === undefined) return { ok: false, message: `no tool ${name}` };
    let shown: AppView | undefined;
    const result = await outcome(async () => {
      const { result, view } = await host.callTool(container, tool, args);
      if (view) views.set(view.resourceUri, view);
      shown = view;
      return result;
    });
    return shown === undefined ? result : { ...result, view: shown.resourceUri };
  },
  async render(resourceUri: string): Promise<Outcome> {
    return outcome(async () => {
      const view = await host.render(container, { resourceUri });
      views.set(resourceUri, view);
      void view.closed.then(record('closed'));
      return { content: [{ type: 'text', text: 'rendered' }] };
    });
  },
  call(name: string, args: Record<string, unknown> = {}, withoutApps = false): Promise<Outcome> {
    return outcome(() => (withoutApps ? formsOnly : client).callTool(name, args));
  },
  initialized(resourceUri: string): boolean {
    return views.get(resourceUri)?.initialized ?? false;
  },
  async close(resourceUri: string): Promise<void> {
    await views.get(resourceUri)?.close('test');
  },
  sameOriginSandboxRefused(): string {
    try {
      new AppHost({ client: () => client, sandboxUrl: new URL('/sandbox.html', location.href).href });
      return 'accepted';
    } catch (error) {
      return (error as Error).name;
    }
  },
  viewCount(): number {
    return container.querySelectorAll('iframe').length;
  },
  async example(endpoint: string, sandboxUrl: string): Promise<void> {
    example = await startHost(new URL(endpoint), sandboxUrl, container, form);
  },
  exampleCall(name: string): Promise<Outcome> {
    const running = example;
    if (running === undefined) return Promise.resolve({ ok: false, message: 'no example host' });
    return outcome(() => running.client.callTool(name, {}));
  },
};

Object.assign(window, { harness });
