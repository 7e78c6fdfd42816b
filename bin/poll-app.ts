#!/usr/bin/env node
/** CDK entry point: `npx cdk synth` / `npx cdk deploy` (add `-c apiKind=rest` for a REST API). */
import { UsageError } from '../domain/errors';
import { buildApp } from '../lib/app';

try {
  buildApp().app.synth();
} catch (error) {
  // A wrong -c value: one line saying which and what is valid, no stack trace.
  if (!(error instanceof UsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}
