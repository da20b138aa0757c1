#!/usr/bin/env node
// `node dist/headless.js [title…]`: the stock report of `headless-client.ts`, signed in with client credentials.
// Exit code 0 when every title was reported, 1 otherwise.
import { runHeadlessClient } from './headless-client.js';

const titles = process.argv.slice(2);
try {
  await runHeadlessClient(titles.length > 0 ? { titles } : {}, (line) => console.log(line));
} catch (error) {
  console.error(`stock report failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
