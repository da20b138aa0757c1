import { describe, expect, it, vi } from 'vitest';
import {
  createNotificationHub,
  notificationMatches,
  type SubscriptionNotification,
} from './notifications.js';

const tools: SubscriptionNotification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
const prompts: SubscriptionNotification = { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' };
const resources: SubscriptionNotification = {
  jsonrpc: '2.0',
  method: 'notifications/resources/list_changed',
};
const updated = (uri: string): SubscriptionNotification => ({
  jsonrpc: '2.0',
  method: 'notifications/resources/updated',
  params: { uri },
});

describe('notificationMatches', () => {
  it('matches each kind only when asked for, URIs exactly', () => {
    expect(notificationMatches({}, tools)).toBe(false);
    expect(notificationMatches({ toolsListChanged: true }, tools)).toBe(true);
    expect(notificationMatches({ toolsListChanged: false }, tools)).toBe(false);
    expect(notificationMatches({ toolsListChanged: true }, prompts)).toBe(false);
    expect(notificationMatches({ promptsListChanged: true }, prompts)).toBe(true);
    expect(notificationMatches({ resourcesListChanged: true }, resources)).toBe(true);
    expect(notificationMatches({ resourcesListChanged: true }, updated('a://x'))).toBe(false);
    expect(notificationMatches({ resourceSubscriptions: ['a://x'] }, updated('a://x'))).toBe(true);
    expect(notificationMatches({ resourceSubscriptions: ['a://x'] }, updated('a://X'))).toBe(false);
    expect(notificationMatches({ resourceSubscriptions: ['a://x'] }, resources)).toBe(false);
    expect(notificationMatches({ toolsListChanged: true }, { method: 'x' } as never)).toBe(false);
  });

  it('matches notifications/tasks by task id against the agreed taskIds', () => {
    const task = (taskId: unknown): SubscriptionNotification =>
      ({ jsonrpc: '2.0', method: 'notifications/tasks', params: { taskId, status: 'working' } }) as never;
    expect(notificationMatches({ taskIds: ['t1'] }, task('t1'))).toBe(true);
    expect(notificationMatches({ taskIds: ['t1'] }, task('t2'))).toBe(false);
    expect(notificationMatches({ taskIds: ['t1'] }, task(undefined))).toBe(false);
    expect(notificationMatches({ taskIds: 't1' }, task('t1'))).toBe(false);
    expect(notificationMatches({}, task('t1'))).toBe(false);
    expect(notificationMatches({ resourceSubscriptions: ['t1'] }, task('t1'))).toBe(false);
  });
});

describe('createNotificationHub', () => {
  it('delivers to matching subscribers in order, until they unsubscribe', () => {
    const hub = createNotificationHub();
    const a = vi.fn();
    const b = vi.fn();
    const stopA = hub.subscribe({ toolsListChanged: true }, a) as () => void;
    hub.subscribe({ resourceSubscriptions: ['a://x'] }, b);
    hub.publish(tools);
    hub.publish(updated('a://x'));
    hub.publish(updated('a://y'));
    expect(a.mock.calls).toEqual([[tools]]);
    expect(b.mock.calls).toEqual([[updated('a://x')]]);
    stopA();
    stopA();
    hub.publish(tools);
    expect(a).toHaveBeenCalledOnce();
  });

  it('a throwing listener does not stop the others', () => {
    const hub = createNotificationHub();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const after = vi.fn();
    hub.subscribe({ toolsListChanged: true }, () => {
      throw new Error('boom');
    });
    hub.subscribe({ toolsListChanged: true }, after);
    hub.publish(tools);
    expect(after).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('rejects a listener that is not a function', () => {
    expect(() => createNotificationHub().subscribe({}, 'x' as never)).toThrow(TypeError);
  });
});
