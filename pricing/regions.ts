/**
 * The AWS Regions a price book may be made for: each code's name as the Price List's `location` attribute
 * spells it, and where CloudFront bills its viewers by default (its `fromLocation` edge group: viewers near
 * the region). From docs.aws.amazon.com/global-infrastructure/latest/regions/aws-regions.html and the
 * Price List's location names (infracost internal/resources/aws/util.go RegionMapping), 2026-11-27.
 */
export const EDGE_LOCATIONS = [
  'United States',
  'Europe',
  'Asia Pacific',
  'Japan',
  'Australia',
  'India',
  'South America',
  'South Africa',
  'Middle East',
] as const;
export type EdgeLocation = (typeof EDGE_LOCATIONS)[number];

export interface Region {
  /** The Price List's `location` for the region. */
  location: string;
  /** The CloudFront edge group its viewers are billed in, by default. */
  viewers: EdgeLocation;
}

const region = (location: string, viewers: EdgeLocation): Region => ({ location, viewers });

export const REGIONS: Record<string, Region> = {
  'us-east-1': region('US East (N. Virginia)', 'United States'),
  'us-east-2': region('US East (Ohio)', 'United States'),
  'us-west-1': region('US West (N. California)', 'United States'),
  'us-west-2': region('US West (Oregon)', 'United States'),
  'ca-central-1': region('Canada (Central)', 'United States'),
  'ca-west-1': region('Canada West (Calgary)', 'United States'),
  'mx-central-1': region('Mexico (Central)', 'United States'),
  'sa-east-1': region('South America (Sao Paulo)', 'South America'),
  'eu-west-1': region('EU (Ireland)', 'Europe'),
  'eu-west-2': region('EU (London)', 'Europe'),
  'eu-west-3': region('EU (Paris)', 'Europe'),
  'eu-central-1': region('EU (Frankfurt)', 'Europe'),
  'eu-central-2': region('EU (Zurich)', 'Europe'),
  'eu-north-1': region('EU (Stockholm)', 'Europe'),
  'eu-south-1': region('EU (Milan)', 'Europe'),
  'eu-south-2': region('EU (Spain)', 'Europe'),
  'il-central-1': region('Israel (Tel Aviv)', 'Europe'),
  'me-south-1': region('Middle East (Bahrain)', 'Middle East'),
  'me-central-1': region('Middle East (UAE)', 'Middle East'),
  'af-south-1': region('Africa (Cape Town)', 'South Africa'),
  'ap-east-1': region('Asia Pacific (Hong Kong)', 'Asia Pacific'),
  'ap-south-1': region('Asia Pacific (Mumbai)', 'India'),
  'ap-south-2': region('Asia Pacific (Hyderabad)', 'India'),
  'ap-northeast-1': region('Asia Pacific (Tokyo)', 'Japan'),
  'ap-northeast-2': region('Asia Pacific (Seoul)', 'Asia Pacific'),
  'ap-northeast-3': region('Asia Pacific (Osaka)', 'Japan'),
  'ap-southeast-1': region('Asia Pacific (Singapore)', 'Asia Pacific'),
  'ap-southeast-2': region('Asia Pacific (Sydney)', 'Australia'),
  'ap-southeast-3': region('Asia Pacific (Jakarta)', 'Asia Pacific'),
  'ap-southeast-4': region('Asia Pacific (Melbourne)', 'Australia'),
  'ap-southeast-5': region('Asia Pacific (Malaysia)', 'Asia Pacific'),
  'ap-southeast-7': region('Asia Pacific (Thailand)', 'Asia Pacific'),
};

/** The region priced when nothing names one: where the CDK CLI deploys with no region configured. */
export const DEFAULT_REGION = 'us-east-1';

export const isRegion = (code: string): boolean => Object.hasOwn(REGIONS, code);

export const isEdgeLocation = (name: unknown): name is EdgeLocation => EDGE_LOCATIONS.includes(name as EdgeLocation);

/** The regions whose viewers are billed in an edge group: a book of one prices CloudFront for viewers there. */
export const regionsWithViewersIn = (viewers: EdgeLocation): string[] =>
  Object.keys(REGIONS).filter((code) => REGIONS[code].viewers === viewers);
