import type { AuthInfo, JSONRPCMessage } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { describe, expect, it } from 'vitest';
import { connectInMemory } from './connect.js';

const ping = { jsonrpc: '2.0', method: 'ping-note' } as JSONRPCMessage;

/** A structural client and server that record what they were connected with. */
function ends(order: string[] = []) {
  const client = {
    transport: undefined as Transport | undefined,
    async connect(transport: Transport) {
      order.push('client');
      client.transport = transport;
    },
  };
  const server = {
    transport: undefined as Transport | undefined,
    args: [] as unknown[],
    connect(transport: Transport, ...rest: [options?: { auth?: AuthInfo }]) {
      order.push('server');
      server.transport = transport;
      server.args = rest;
    },
  };
  return { client, server };
}

async function first(transport: Transport): Promise<JSONRPCMessage | undefined> {
  for await (const message of transport.messages) return message;
  return undefined;
}

describe('connectInMemory', () => {
  it('connects the server first, then the client, over one linked pair, and returns it', async () => {
    const order: string[] = [];
    const { client, server } = ends(order);
    await using pair = await connectInMemory(client, server);
    expect(order).toEqual(['server', 'client']);
    expect(client.transport).toBe(pair[0]);
    expect(server.transport).toBe(pair[1]);
    await pair[0].send(ping);
    expect(await first(pair[1])).toEqual(ping);
  });

  it('passes auth to the server only when given', async () => {
    const auth: AuthInfo = { clientId: 'c1', issuer: 'https://issuer', subject: 'alice' };
    const withAuth = ends();
    await using a = await connectInMemory(withAuth.client, withAuth.server, { auth });
    expect(withAuth.server.args).toEqual([{ auth }]);
    const without = ends();
    await using b = await connectInMemory(without.client, without.server);
    expect(without.server.args).toEqual([]);
    expect(a).not.toBe(b);
  });

  it('awaits a server connect that returns a promise', async () => {
    const order: string[] = [];
    const { client } = ends(order);
    const server = {
      async connect() {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push('server ready');
      },
    };
    await using _pair = await connectInMemory(client, server);
    expect(order).toEqual(['server ready', 'client']);
  });

  it('closes the pair and rethrows when a connect fails', async () => {
    const { server } = ends();
    const boom = new Error('client refused');
    const client = {
      async connect() {
        throw boom;
      },
    };
    await expect(connectInMemory(client, server)).rejects.toBe(boom);
    await expect(server.transport?.send(ping)).rejects.toThrow('closed');
  });

  it('await using closes both ends', async () => {
    const { client, server } = ends();
    {
      await using _pair = await connectInMemory(client, server);
    }
    await expect(client.transport?.send(ping)).rejects.toThrow('closed');
    await expect(server.transport?.send(ping)).rejects.toThrow('closed');
  });
});
