/** Width and height from a PNG's IHDR or a JPEG's SOF marker, without decoding pixels; null if not found. */
export function imageSize(bytes: Uint8Array, type: 'image/png' | 'image/jpeg') {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'image/png') {
    if (bytes.length < 24) return null;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1] ?? 0;
    // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): the frame header with the image's size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    i += 2 + view.getUint16(i + 2);
  }
  return null;
}
