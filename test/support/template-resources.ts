/** The synthesized stack's resources as the template tests read them (test/stack/). */
import { templateFor } from './synth';

export type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, any> };
export const resources = (type: string, kind: 'http' | 'rest' = 'http') =>
  Object.entries(templateFor(kind).toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

/** The IAM actions granted to the function whose source is `entry`. */
export function actionsOf(entry: string): { actions: string[]; statements: any[] } {
  const [, fn] = resources('AWS::Lambda::Function').find(
    ([, r]) => r.Metadata?.['poll:entry'] === `lambdas/entries/${entry}`,
  )!;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  const statements = resources('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
  return { actions: statements.flatMap((s) => [s.Action].flat()).sort(), statements };
}

export const appFunctions = (kind: 'http' | 'rest' = 'http') =>
  resources('AWS::Lambda::Function', kind).filter(([, r]) => r.Metadata?.['poll:entry']);

export function declaredRoutes(kind: 'http' | 'rest'): string[] {
  if (kind === 'http')
    return resources('AWS::ApiGatewayV2::Route', kind)
      .map(([, r]) => r.Properties.RouteKey)
      .sort();
  return restMethods()
    .filter((route) => !route.startsWith('OPTIONS ')) // CORS preflights, answered by API Gateway itself
    .sort();
}

/** "METHOD /path" for every method of the REST API, its CORS preflights (OPTIONS) included. */
export function restMethods(): string[] {
  const byId = new Map(resources('AWS::ApiGateway::Resource', 'rest'));
  const pathOf = (ref: any): string => {
    if (!ref?.Ref) return '';
    const resource = byId.get(ref.Ref)!;
    return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
  };
  return resources('AWS::ApiGateway::Method', 'rest').map(
    ([, m]) => `${m.Properties.HttpMethod} ${pathOf(m.Properties.ResourceId)}`,
  );
}
