import { migration001 } from './001_initial.js';
import { migration002 } from './002_ingest.js';
import { migration003 } from './003_receiver.js';
import { migration004 } from './004_fewer_delivery_indexes.js';
import { migration005 } from './005_history.js';
import { migration006 } from './006_ingest_log_limit.js';
import { migration007 } from './007_lighter_ingestion.js';
import { migration008 } from './008_lean_dedupe_index.js';
import { migration009 } from './009_failed_deliveries.js';
import { migration010 } from './010_receiver_verdicts.js';
import { migration011 } from './011_check_runs.js';
import { migration012 } from './012_receiver_refuses_invalid_signatures.js';
import { migration013 } from './013_check_traffic.js';
import { migration014 } from './014_failed_real_time.js';
import { migration015 } from './015_cascades_by_trigger.js';
import { migration016 } from './016_captures_sent_by_check.js';
import type { Migration } from './types.js';

/** In order; each number exactly once. */
export const MIGRATIONS: readonly Migration[] = [migration001, migration002, migration003, migration004, migration005, migration006, migration007, migration008, migration009, migration010, migration011, migration012, migration013, migration014, migration015, migration016];
