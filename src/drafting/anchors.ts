// The names by which an exported Word file marks its blocks, shared by the writer and the reader (which runs
// in the MCP Worker, so this module imports nothing).

/** Custom property: `case id|blocks hash` of the export. */
export const EXPORT_PROPERTY = 'chambers_export';
/** Custom property prefix: per block, `kind|key|version|text hash|bookmark`. */
export const BLOCK_PROPERTY_PREFIX = 'chambers_block_';
/** Custom property naming how many frame paragraphs the file has; its presence says the frames are marked. */
export const FRAMES_PROPERTY = 'chambers_frames';

/** The bookmark spanning block i from its first paragraph to its last. */
export const bookmarkName = (i: number) => `chambers_block_${i}`;
export const BLOCK_BOOKMARK = /^chambers_block_(\d+)$/;

/**
 * A bookmark around each paragraph the export writes outside the blocks (headings, placeholders, the appendix):
 * the reader tells them from a paragraph the chair added, which belongs to the block it was added beside.
 */
export const frameBookmarkName = (i: number) => `chambers_frame_${i}`;
export const FRAME_BOOKMARK = /^chambers_frame_\d+$/;

/** A block's content control tag: kind|key|version. */
export const sdtTag = (kind: string, key: string, version: number) => `${kind}|${key}|${version}`;
