#!/usr/bin/env node
/** CDK entry point: `npx cdk synth` / `npx cdk deploy` (add `-c apiKind=rest` for a REST API). */
import { buildApp } from '../lib/app';

buildApp().app.synth();
