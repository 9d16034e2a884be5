// What the MCP Worker's bundle gets instead of the heavy libraries (wrangler.toml `alias`): unpdf (pdf.js),
// the docx writer and the OCR libraries (tesseract.js, utif2, pngjs) live only in the extraction Worker. Any use here throws and names the way out: do the work
// in a job handler (entry/registries.ts), which the extraction Worker runs. CommonJS on purpose: a module whose
// exports are not static lets every named import bind, and the first property read says what went wrong.
const refuse = new Proxy(
  {},
  {
    get(_target, name) {
      // What bundlers and module loaders probe for: answered as "absent", not refused.
      if (typeof name === 'symbol' || name === '__esModule' || name === 'then' || name === 'default')
        return undefined;
      throw new Error(
        `${String(name)} comes from a heavy library (unpdf, docx, tesseract.js, utif2, pngjs) that the MCP Worker does not hold: ` +
          'do this work in a job handler (entry/registries.ts), which the extraction Worker runs.',
      );
    },
  },
);
module.exports = Object.create(refuse);
