export * from './agent_tokens.ts';
export * from './analysis.ts';
export * from './audit_log.ts';
export * from './cases.ts';
export * from './documents.ts';
export * from './hai.ts';
export * from './jobs.ts';
export * from './kv_entries.ts';
