// The shape of the generated library fixture's documents (scripts/make_library.ts): header lines, body blocks
// with their citations, holdings and claim summaries marked, and the metadata they should yield.

export type Corpus = 'library' | 'internal' | 'style';
export type Treatment = 'relied_on' | 'distinguished' | 'criticised' | 'overruled_or_reversed' | 'mentioned';
export type Part = 'header' | 'parties' | 'background' | 'claims' | 'discussion' | 'outcome' | 'signatures';

export interface Meta {
  court: string;
  proceeding: string;
  number: string;
  decision_date: string;
  judges: string[];
  parties: string;
  outcome: 'rejected' | 'accepted' | 'partially_accepted';
  practice_area: 'betterment_levy' | 'compensation' | 'permits' | 'planning';
}

/** A citation in a paragraph: the cited document's name (or an absent ruling's key), treatment, cue. */
export type Cite = [target: string, treatment: Treatment, cue?: string];

export type Block =
  /** A heading line; for style documents it opens a part. */
  | { h: string; part?: Part }
  /**
   * A paragraph; `{NAME}` stands for the number of the document NAME (or `{X1}` for an absent ruling), written
   * in a varying form; `cites` lists them in order.
   */
  | { p: string; cites?: Cite[]; holding?: string; claim?: true; part?: Part };

export interface DocSpec {
  name: string;
  corpus: Corpus;
  /** The document's own number as written in its header. */
  written: string;
  title: string;
  header: string[];
  /** The header's part split for style documents: how many header lines are the parties. */
  partiesLines?: number;
  body: Block[];
  closing: string[];
  meta: Meta;
}
