/**
 * The static frontend: a private bucket behind CloudFront. The site is one page carrying its
 * script, styles and config (frontend/build.ts), deployed with the API's URL written in at
 * deploy time; a CloudFront Function routes the page paths to it and answers any other path
 * with a 404 page, so a visit is one request.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  OriginRequestPolicy,
  OriginProtocolPolicy,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  PriceClass,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import {
  API_PATH_PATTERN,
  POLL_PATH_PATTERN,
  RESULTS_PATH_PATTERN,
  VOTE_PATH_PATTERN,
} from '../config/results-delivery';
import { POLL_READ_CACHE_SECONDS, RESULTS_CACHE_SECONDS, SITE_CACHE_CONTROL } from '../config/caching';
import { SITE_PAGES, type SiteConfig } from '../config/site';
import { buildSite } from '../frontend/build';
import { pageWithConfig, type Site } from '../frontend/page';
import { retainedLogGroup } from './functions';
import { acknowledge } from './nag';

/** The one object the site is: every page path is answered with it. */
const PAGE_KEY = 'index.html';

/**
 * The CloudFront Function in front of the bucket (viewer request, JavaScript runtime 2.0): the
 * site's page paths (config SITE_PAGES) become the page's key; anything else gets the 404 page
 * from the edge, without a trip to the bucket.
 */
export function routerCode(notFound: string): string {
  return `var PAGES = [${SITE_PAGES.create}, ${SITE_PAGES.poll}];
var NOT_FOUND = ${JSON.stringify(notFound)};
function handler(event) {
  var request = event.request;
  for (var i = 0; i < PAGES.length; i++) {
    if (PAGES[i].test(request.uri)) {
      request.uri = '/${PAGE_KEY}';
      return request;
    }
  }
  return {
    statusCode: 404,
    statusDescription: 'Not Found',
    headers: { 'content-type': { value: 'text/html; charset=utf-8' }, 'cache-control': { value: 'no-store' } },
    body: { encoding: 'text', data: NOT_FOUND },
  };
}`;
}

/**
 * `cloudfront`: a private bucket behind a distribution (AWS). `bucket-website`: the bucket's own
 * website endpoint, for LocalStack's free plan, which has no CloudFront and no CDK
 * BucketDeployment; `npm run localstack:deploy` uploads the page there.
 */
export type SiteHosting = 'cloudfront' | 'bucket-website';

export class PollSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution?: Distribution;
  /** The site's origin, the only origin the API answers CORS for. */
  readonly origin: string;
  /**
   * Built once at synth: the stack deploys it behind CloudFront (a bucket website gets it from
   * npm run localstack:deploy).
   */
  readonly site: Site = buildSite();

  constructor(scope: Construct, id: string, props: { hosting: SiteHosting }) {
    super(scope, id);
    if (props.hosting === 'bucket-website') {
      this.bucket = new Bucket(this, 'Bucket', {
        websiteIndexDocument: 'index.html',
        // Page paths like /poll/{id} are not objects: the app's index.html takes over.
        websiteErrorDocument: 'index.html',
        publicReadAccess: true,
        blockPublicAccess: BlockPublicAccess.BLOCK_ACLS_ONLY,
        encryption: BucketEncryption.S3_MANAGED,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      this.origin = this.bucket.bucketWebsiteUrl;
      acknowledge(
        this.bucket,
        ['AwsSolutions-S1', 'AwsSolutions-S2', 'AwsSolutions-S5', 'AwsSolutions-S10'],
        'LocalStack variant only: its free plan has no CloudFront, ' +
          'so the site is a public website bucket (HTTP) on the developer’s machine.',
      );
      return;
    }
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // The site is a build output: deleting the stack deletes it.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    const router = new EdgeFunction(this, 'Router', {
      comment: 'Poll site: page paths to the page, any other path to a 404',
      code: FunctionCode.fromInline(routerCode(this.site.notFound)),
      runtime: FunctionRuntime.JS_2_0,
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Poll site',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
        functionAssociations: [{ function: router, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      // North America and Europe edges only: the cheapest price class.
      priceClass: PriceClass.PRICE_CLASS_100,
      httpVersion: HttpVersion.HTTP2_AND_3,
    });
    this.origin = `https://${this.distribution.distributionDomainName}`;
    acknowledge(
      this.bucket,
      ['AwsSolutions-S1'],
      'A build output read only by CloudFront (origin access control): ' +
        'server access logs would record only CloudFront’s fetches.',
    );
    acknowledge(
      this.distribution,
      ['AwsSolutions-CFR1', 'AwsSolutions-CFR2', 'AwsSolutions-CFR3'],
      'A public static site for anyone with a poll link: no geo restriction; ' +
        'WAF and access logs cost more than the site at small volume and record nothing the API does not.',
    );
    acknowledge(
      this.distribution,
      ['AwsSolutions-CFR4'],
      'The default *.cloudfront.net certificate cannot set a minimum TLS version; ' +
        'with a custom domain and certificate, set minimumProtocolVersion to TLSv1.2_2021.',
    );
  }

  /**
   * results=cloudfront: the distribution fronts the API, so the page calls it on its own origin
   * (no CORS, no preflights); results are cached for the results max-age and poll reads for the max-age
   * their answers carry: most of either never reach API Gateway. Votes and everything else under /api
   * pass through uncached, every header but Host.
   */
  frontApi(api: { domainName: string; path?: string }): void {
    if (!this.distribution) throw new Error('results=cloudfront needs the CloudFront-hosted site');
    const origin = new HttpOrigin(api.domainName, {
      originPath: api.path,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    });
    const cached = (id: string, comment: string, maxTtl: Duration, defaultTtl = maxTtl) => ({
      cachePolicy: new CachePolicy(this, id, {
        comment,
        minTtl: Duration.seconds(0),
        defaultTtl,
        maxTtl,
        enableAcceptEncodingGzip: true,
        enableAcceptEncodingBrotli: true,
      }),
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      compress: true,
    });
    const passedThrough = {
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
    };
    // CloudFront takes the first behavior that matches: results and votes before the poll, the poll before the rest.
    const results = 'Poll results: at most the results max-age; one cached answer per poll';
    this.distribution.addBehavior(
      RESULTS_PATH_PATTERN,
      origin,
      cached('ResultsCache', results, Duration.seconds(RESULTS_CACHE_SECONDS)),
    );
    this.distribution.addBehavior(VOTE_PATH_PATTERN, origin, passedThrough);
    // A poll answers with the max-age left before it changes (its close): CloudFront keeps it no longer, and
    // an answer that says nothing not at all.
    const polls = 'Poll reads: the max-age each answer carries, at most the poll max-age; one cached answer per poll';
    this.distribution.addBehavior(
      POLL_PATH_PATTERN,
      origin,
      cached('PollCache', polls, Duration.seconds(POLL_READ_CACHE_SECONDS), Duration.seconds(0)),
    );
    this.distribution.addBehavior(API_PATH_PATTERN, origin, passedThrough);
  }

  /** Deploys the page with its config written in (CloudFront hosting only; LocalStack's deploy uploads it itself). */
  deploy(config: SiteConfig): void {
    if (!this.distribution) return;
    // The config holds deploy-time values (the API's URL): the deployment writes them into the page.
    const page = pageWithConfig(this.site.page, Stack.of(this).toJsonString(config));
    new BucketDeployment(this, 'DeployPage', {
      sources: [Source.data(PAGE_KEY, page, { jsonEscape: true })],
      destinationBucket: this.bucket,
      logGroup: retainedLogGroup(this, 'DeployLogs'),
      contentType: 'text/html; charset=utf-8',
      cacheControl: [CacheControl.fromString(SITE_CACHE_CONTROL)],
      // CloudFront keeps the page until a deploy replaces it.
      distribution: this.distribution,
      distributionPaths: [`/${PAGE_KEY}`],
    });
  }
}
