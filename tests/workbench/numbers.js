// What the workbenches' WebAssembly-against-native tests share.
"use strict";

// A small seeded generator (xorshift64), so that a test's random cases are
// the same on every run: numbers in [0, 1).
function xorshift(seed) {
  let s = BigInt(seed);
  return () => {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    return Number(s >> 11n) / 2 ** 53;
  };
}

// The 64 bits of a double, to compare two results bit for bit.
const bits = (x) => new BigUint64Array(new Float64Array([x]).buffer)[0];

module.exports = { xorshift, bits };
