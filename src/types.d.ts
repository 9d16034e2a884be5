// Markdown files are bundled as text by wrangler's Text rule (agents/*.md on Workers).
declare module '*.md' {
  const text: string;
  export default text;
}
