// Ratings as pages show them: the server's shown scale (1500 for a newcomer, 200 points per
// OpenSkill beta, docs/protocol.md) with "?" while the rating is provisional, and changes
// with their sign.
export const START = 1500;

export function ratingText(value, provisional) {
  return `${Math.round(value)}${provisional ? "?" : ""}`;
}

export function changeText(before, after) {
  const change = Math.round(after - before);
  return `${change < 0 ? "-" : "+"}${Math.abs(change)}`;
}
