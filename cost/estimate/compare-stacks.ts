/**
 * The cost of a change: two synthesized templates of this app priced for the same traffic profile, line by
 * line, each moved line with the template's settings that moved it (stack-diff.ts), the busiest second's verdict
 * and the break-even with the baseline VPS on either side, the resources changed and the IAM broadened. Pure.
 */
import type { PriceBook } from '../../pricing/price-book';
import type { PriceId } from '../../pricing/price-lines';
import { derivePeak, type Peak } from '../usage/peaks';
import type { TrafficProfile } from '../usage/traffic-profile';
import { FUNCTION_ROLES, type FunctionRole, type UnitCosts } from '../usage/unit-costs';
import type { Bill, BillLine, BillOptions } from './bill';
import { type Capacity, capacityOf } from './capacity';
import { type BreakEven, breakEven } from './compare';
import { designOf } from './designs';
import { estimate } from './model';
import type { NotPriced, StackReading } from './stack-config';
import {
  type IamBroadening,
  iamBroadening,
  type ResourceChange,
  resourceChanges,
  type SettingChange,
  settingChanges,
} from './stack-diff';
import type { VpsCapacity } from './vps';
import { BASELINE_VPS } from './vps-tiers';

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;

/** One side of the comparison as given: its template, read, where it came from, the prices it is billed at. */
export interface SideInput {
  template: Json;
  reading: StackReading;
  source: string;
  options: BillOptions;
}

/** One side priced: its bill, its verdict on the busiest second, its break-even with the baseline VPS. */
export interface PricedSide {
  source: string;
  /** The deployable design it is, when it is one. */
  design?: string;
  reading: StackReading;
  bill: Bill;
  capacity: Capacity;
  breakEven: BreakEven;
  /** The prices it is billed at: its Region's book. */
  book: PriceBook;
}

/** A bill line on both sides: what it used and cost before and after, and why it moved. */
export interface LineChange {
  priceId: PriceId;
  service: string;
  item: string;
  unit: string;
  old: { usage: number; usd: number };
  new: { usage: number; usd: number };
  deltaUsd: number;
  moved: boolean;
  /** The template's changes that moved it, in its terms (`GetResults661AABA0 MemorySize 256 → 1024: GB-s x4`). */
  reasons: string[];
}

export interface StackComparison {
  profile: TrafficProfile;
  /** The busiest second the profile brings: both sides' verdicts are on it. */
  peak: Peak;
  base: PricedSide;
  head: PricedSide;
  /** Every line either bill has, in the bill's order. */
  lines: LineChange[];
  total: { old: number; new: number; deltaUsd: number };
  perMillionVotes: { old?: number; new?: number };
  resources: ResourceChange[];
  iam: IamBroadening[];
  settings: SettingChange[];
  /** What the head does not price that the base did not have: a resource added with no line of its own. */
  notPricedAdded: NotPriced[];
}

/** A line moves when its dollars or its usage do (a cent's float noise is not a move). */
const EPSILON_USD = 0.005;

/** `x4`, `x0.25`, `x1.07`: a ratio as the reasons say it. */
export const ratioText = (from: number, to: number) =>
  from > 0 ? `x${Number((to / from).toPrecision(3))}` : to > 0 ? 'from none' : 'x1';

function priceSide(
  side: SideInput,
  profile: TrafficProfile,
  peak: Peak,
  units: UnitCosts,
  vps: VpsCapacity,
): PricedSide {
  const { stack } = side.reading;
  const bill = estimate(profile, stack, units, side.options);
  const account = side.options.newAccount ? 'new' : 'established';
  return {
    source: side.source,
    design: designOf(stack)?.id,
    reading: side.reading,
    bill,
    capacity: capacityOf(stack, peak, units, {
      account,
      profile,
      flatRatePlan: bill.cloudFront?.plan !== undefined,
      region: side.options.book.region,
    }),
    breakEven: breakEven(BASELINE_VPS, profile, stack, vps, units, side.options),
    book: side.options.book,
  };
}

/** Why a moved line moved: the settings that drive it (by function for GB-seconds), else those that drive any. */
function reasonsFor(
  line: Pick<LineChange, 'priceId' | 'unit' | 'old' | 'new'>,
  settings: SettingChange[],
  base: Bill,
  head: Bill,
): string[] {
  const byFunction = (role: FunctionRole) =>
    ratioText(base.usage.functionGbSeconds?.[role] ?? 0, head.usage.functionGbSeconds?.[role] ?? 0);
  const own = settings.filter((s) => s.lines?.includes(line.priceId));
  const usage = ratioText(line.old.usage, line.new.usage);
  const reasons = own.map((s) =>
    s.role && s.lines?.some((id) => id.endsWith('GbSeconds'))
      ? `${s.text}: ${line.unit} of that function ${byFunction(s.role)}`
      : `${s.text}: ${line.unit} ${usage}`,
  );
  const broad = settings.filter((s) => !s.lines).map((s) => `${s.text}: ${line.unit} ${usage}`);
  if (reasons.length + broad.length > 0) return [...reasons, ...broad];
  return [`${line.unit} ${usage}: the traffic it carries moved with the changes above`];
}

/** Both bills' lines, matched by price: a line only one side has is $0 on the other. */
function lineChanges(base: Bill, head: Bill, settings: SettingChange[]): LineChange[] {
  const ids = [...new Set([...base.lines, ...head.lines].map((l) => l.priceId))];
  const find = (bill: Bill, id: PriceId) => bill.lines.find((l) => l.priceId === id);
  return ids.map((priceId) => {
    const a = find(base, priceId);
    const b = find(head, priceId);
    const any = (b ?? a) as BillLine;
    const old = { usage: a?.usage ?? 0, usd: a?.usd ?? 0 };
    const now = { usage: b?.usage ?? 0, usd: b?.usd ?? 0 };
    const deltaUsd = now.usd - old.usd;
    const moved = Math.abs(deltaUsd) >= EPSILON_USD || Math.abs(now.usage - old.usage) > 1e-9 * Math.max(old.usage, 1);
    const line = { priceId, service: any.service, item: any.item, unit: any.unit, old, new: now };
    return { ...line, deltaUsd, moved, reasons: moved ? reasonsFor(line, settings, base, head) : [] };
  });
}

/** The two templates priced for one profile, and everything that changed between them. */
export function compareStacks(input: {
  profile: TrafficProfile;
  units: UnitCosts;
  vpsCapacity: VpsCapacity;
  base: SideInput;
  head: SideInput;
}): StackComparison {
  const { profile, units, vpsCapacity } = input;
  const peak = derivePeak(profile);
  const base = priceSide(input.base, profile, peak, units, vpsCapacity);
  const head = priceSide(input.head, profile, peak, units, vpsCapacity);
  const settings = settingChanges(input.base.reading, input.head.reading, input.head.template.Resources);
  const before = new Set(input.base.reading.notPriced.map((n) => `${n.type} ${n.logicalId} ${n.why}`));
  return {
    profile,
    peak,
    base,
    head,
    lines: lineChanges(base.bill, head.bill, settings),
    total: { old: base.bill.totalUsd, new: head.bill.totalUsd, deltaUsd: head.bill.totalUsd - base.bill.totalUsd },
    perMillionVotes: { old: base.bill.usdPerMillionVotes, new: head.bill.usdPerMillionVotes },
    resources: resourceChanges(input.base.template.Resources, input.head.template.Resources),
    iam: iamBroadening(input.base.template.Resources, input.head.template.Resources),
    settings,
    notPricedAdded: input.head.reading.notPriced.filter((n) => !before.has(`${n.type} ${n.logicalId} ${n.why}`)),
  };
}

/** The functions whose GB-seconds a comparison moved, each with its old and new figure. */
export function functionGbSecondsMoved(comparison: StackComparison) {
  const of = (bill: Bill, role: FunctionRole) => bill.usage.functionGbSeconds?.[role] ?? 0;
  return FUNCTION_ROLES.filter(
    (role) => Math.abs(of(comparison.head.bill, role) - of(comparison.base.bill, role)) > 1e-9,
  ).map((role) => ({
    role,
    logicalId: comparison.head.reading.functionIds[role] ?? comparison.base.reading.functionIds[role] ?? role,
    old: of(comparison.base.bill, role),
    new: of(comparison.head.bill, role),
  }));
}
