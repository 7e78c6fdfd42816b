import { Template } from 'aws-cdk-lib/assertions';
import type { ApiKind } from '../../config/stack';
import { synthesizeTemplate } from '../../lib/app';

const cache = new Map<ApiKind, Template>();

/** The stack's template for an API kind; bundling is skipped (the template is the same, synth is faster). */
export function templateFor(apiKind: ApiKind): Template {
  let template = cache.get(apiKind);
  if (!template) {
    template = Template.fromJSON(synthesizeTemplate({ apiKind }));
    cache.set(apiKind, template);
  }
  return template;
}
