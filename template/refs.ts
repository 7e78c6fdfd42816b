/**
 * How a synthesized CloudFormation template points from one resource to another ({Ref}, {Fn::GetAtt}): read by
 * the template's model (model.ts) and by the estimator's diff of two templates (cost/estimate/stack-diff.ts).
 */

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;

/** The logical id a {Fn::GetAtt: [id, 'Arn']} anywhere inside `value` points to. */
export function getAttTarget(value: Json): string | undefined {
  if (Array.isArray(value)) return value.map(getAttTarget).find(Boolean);
  if (value && typeof value === 'object') {
    if (Array.isArray(value['Fn::GetAtt'])) return value['Fn::GetAtt'][0];
    return Object.values(value).map(getAttTarget).find(Boolean);
  }
  return undefined;
}

/** The logical id a {Ref: id} names, where `value` is one. */
export function refTarget(value: Json): string | undefined {
  return value && typeof value === 'object' && typeof value.Ref === 'string' ? value.Ref : undefined;
}

/**
 * Functions that only serve CloudFormation custom resources (site upload, bucket cleanup): deployment
 * machinery, not the app; they run at a deploy, not with the traffic.
 */
export function customResourceProviders(resources: Record<string, { Type: string; Properties?: Json }>): Set<string> {
  return new Set(
    Object.values(resources)
      .filter((r) => r.Type.startsWith('Custom::') || r.Type === 'AWS::CloudFormation::CustomResource')
      .map((r) => getAttTarget(r.Properties?.ServiceToken))
      .filter((id): id is string => Boolean(id)),
  );
}
