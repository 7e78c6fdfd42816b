/** The stack's name, and the choices of what it builds that every side of the app names alike. */

/** The CloudFormation stack's name (and the key of its outputs in `cdk deploy --outputs-file`). */
export const STACK_NAME = 'ServerlessPoll';

/** Where the stack is deployed: `-c target=localstack` builds what LocalStack's free plan runs. */
export type DeployTarget = 'aws' | 'localstack';

/** `-c apiKind=rest` builds a REST API (LocalStack's free plan has no HTTP API). */
export type ApiKind = 'http' | 'rest';
export const DEFAULT_API_KIND: ApiKind = 'http';

/** The template's Metadata key that records the AWS Region the stack was synthesized for: what npm run cost prices. */
export const PRICING_REGION_METADATA = 'PollPricingRegion';
