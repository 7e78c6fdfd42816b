import { PROFILES } from './cost/profiles';
import { derivePeak } from './cost/peaks';
import { capacityOf } from './cost/capacity';
import { DEFAULT_UNIT_COSTS } from './cost/model';
import { readFileSync } from 'node:fs';
const designs = JSON.parse(readFileSync('cost/designs.json','utf8'));
for (const account of ['established','new'] as const)
for (const p of Object.values(PROFILES)) { const peak = derivePeak(p);
  for (const [id, stack] of Object.entries<any>(designs)) {
    const c = capacityOf(stack, peak, DEFAULT_UNIT_COSTS, { account, oneVotePerVoter: p.oneVotePerVoter });
    console.log(account, p.name, id, c.carries, c.bottleneck, 'ramp', c.rampSeconds, JSON.stringify(c.carriesWith), 'tightest', c.tightest.name, Math.round(c.tightest.load), '/', c.tightest.limit);
  }}
