/**
 * What the local runtime serves, as the template's model reads it (template/model.ts): each function with the
 * source file it bundles and runs, and the behaviors that cache the API. Nothing here repeats the stack.
 */
import { FUNCTION_METADATA } from '../config/functions';
import {
  type CacheBehaviorModel,
  type FunctionModel as TemplateFunction,
  readStackTemplate,
  type StackTemplate,
  type Template,
} from '../template/model';
import { refTarget } from '../template/refs';

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;

/** A function the runtime can run: its source file is known, and its name (the logical id where unnamed). */
export interface FunctionModel extends TemplateFunction {
  name: string;
  entry: string;
}

export interface AppModel extends Omit<StackTemplate, 'functions'> {
  functions: FunctionModel[];
  /** Behaviors of the distribution that cache the API (results=cloudfront). */
  apiCacheBehaviors: CacheBehaviorModel[];
}

export function readTemplate(template: Template): AppModel {
  const model = readStackTemplate(template);
  const functions = model.functions.map(({ entry, ...fn }): FunctionModel => {
    if (entry) return { ...fn, entry, name: fn.name ?? fn.logicalId };
    throw new Error(
      `Function ${fn.logicalId} has no ${FUNCTION_METADATA.entry} metadata: ` +
        'make it with lib/functions.ts appFunction().',
    );
  });
  const apiCacheBehaviors = model.distributions.flatMap((d) => d.behaviors.filter((b) => b.toApi));
  return { ...model, functions, apiCacheBehaviors };
}

export interface PhysicalIds {
  ref(logicalId: string): string;
  getAtt(logicalId: string, attribute: string): string;
}

/** Resolves {Ref}, {Fn::GetAtt} and {Fn::Join} in a template value to the emulated resources' names, URLs and ARNs. */
export function resolveValue(value: Json, physical: PhysicalIds): string {
  if (typeof value === 'string') return value;
  const ref = refTarget(value);
  if (ref) return physical.ref(ref);
  const getAtt = value?.['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return physical.getAtt(getAtt[0], getAtt[1]);
  const join = value?.['Fn::Join'];
  if (Array.isArray(join) && Array.isArray(join[1]))
    return join[1].map((part: Json) => resolveValue(part, physical)).join(join[0]);
  throw new Error(`The local runtime cannot resolve ${JSON.stringify(value)}`);
}
