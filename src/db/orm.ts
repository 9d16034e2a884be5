// drizzle-orm's operators and types, imported from here rather than from 'drizzle-orm' in each file. Why: Node 22
// parses a package's package.json `exports` again for every file that imports the package, and drizzle-orm's is
// 179 KB; the ~120 files of the server importing it cost ~300 ms of `npm start` (measured with --cpu-prof).
export * from 'drizzle-orm';
