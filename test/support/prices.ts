/** The committed us-east-1 price book, as the tests hand it to the model (the product reads it per region). */
import type { BillOptions } from '../../cost/estimate/bill';
import { readPriceBook } from '../../pricing/price-book';

export const US_EAST_1 = readPriceBook('us-east-1');
/** A bill's options with the us-east-1 book: an established account unless said. */
export const BILL = { book: US_EAST_1 } satisfies BillOptions;
export const NEW_ACCOUNT = { book: US_EAST_1, newAccount: true } satisfies BillOptions;
