// The one default logger: its prefix, silence for what is missing, and a throwing logger contained.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleLogger, LOG_PREFIX, resolveLogger } from './logger.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('resolveLogger', () => {
  it('defaults to the console under one prefix, debug silent', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const log = resolveLogger(undefined);
    expect(log).toBe(consoleLogger);
    log.warn('lost a bus message', { count: 2 });
    log.error('internal error');
    log.debug('nothing');
    expect(warn).toHaveBeenCalledWith(`${LOG_PREFIX} lost a bus message`, { count: 2 });
    expect(error).toHaveBeenCalledWith(`${LOG_PREFIX} internal error`);
    expect(debug).not.toHaveBeenCalled();
    expect(LOG_PREFIX).toBe('[boomerang]');
  });

  it('uses what a logger has, leaves the rest silent, and contains a logger that throws', () => {
    const seen: string[] = [];
    const logger = {
      prefix: 'mine',
      warn(this: { prefix: string }, message: string) {
        seen.push(`${this.prefix}: ${message}`);
      },
      error() {
        throw new Error('the log sink is down');
      },
    };
    const log = resolveLogger(logger);
    log.warn('a');
    expect(() => log.error('b')).not.toThrow();
    expect(() => log.debug('c')).not.toThrow();
    expect(seen).toEqual(['mine: a']);
  });
});
