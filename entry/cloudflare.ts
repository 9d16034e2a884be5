// The Cloudflare Workers entry (wrangler.toml `main`): the agent definitions bundled as text, since Workers
// have no filesystem, handed to the handlers of entry/worker.ts.
import analyst from '../agents/analyst.md';
import ceo from '../agents/ceo.md';
import qa from '../agents/qa.md';
import researcher from '../agents/researcher.md';
import writer from '../agents/writer.md';
import { createWorker } from './worker.ts';

export default createWorker({
  'agents/ceo.md': ceo,
  'agents/analyst.md': analyst,
  'agents/researcher.md': researcher,
  'agents/writer.md': writer,
  'agents/qa.md': qa,
});
