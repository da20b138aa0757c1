// Runs the README's example tests (harness.examples.ts: its describe blocks register when imported).
import './harness.examples.js';
