import { Template } from 'aws-cdk-lib/assertions';
import type { ApiKind } from '../../config/app-config';
import { buildApp } from '../../lib/app';

const cache = new Map<ApiKind, Template>();

/** The stack's template for an API kind; bundling is skipped (the template is the same, synth is faster). */
export function templateFor(apiKind: ApiKind): Template {
  let template = cache.get(apiKind);
  if (!template) {
    const { stack } = buildApp({ context: { apiKind, 'aws:cdk:bundling-stacks': [] } });
    template = Template.fromStack(stack);
    cache.set(apiKind, template);
  }
  return template;
}
