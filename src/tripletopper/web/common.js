// Helpers shared by the pages: the HTTP API, seat tokens, names, small DOM tools.

export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Seat-Token"] = token;
  const csrf = localStorage.getItem("tt-csrf");  // a signed-in change must carry it
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || `the server said ${response.status}`);
  return data;
}

// A seat is held by a secret token, kept in this browser only (or carried by a seat link).
export function getToken(tableId) { return localStorage.getItem(`tt-token-${tableId}`); }
export function setToken(tableId, token) {
  localStorage.setItem(`tt-token-${tableId}`, token);
  const recent = recentTables().filter((id) => id !== tableId);  // a guest's recent games
  localStorage.setItem("tt-recent", JSON.stringify([tableId, ...recent].slice(0, 10)));
}
export function recentTables() {
  try { return JSON.parse(localStorage.getItem("tt-recent") || "[]").filter((id) => typeof id === "string"); } catch { return []; }
}
export function dropToken(tableId) { localStorage.removeItem(`tt-token-${tableId}`); }
export function getName() { return localStorage.getItem("tt-name") || ""; }
export function setName(name) { localStorage.setItem("tt-name", name); }

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

// The signed-in account of this browser (null: a guest).  Its CSRF token is kept for api();
// a session cookie that is no longer valid is cleared, so the guest plays on.
export async function whoAmI() {
  const response = await fetch("/api/account");
  if (response.ok) {
    const data = await response.json();
    if (data.csrf) localStorage.setItem("tt-csrf", data.csrf);
    else localStorage.removeItem("tt-csrf");
    return data.account;
  }
  localStorage.removeItem("tt-csrf");
  const data = await response.json().catch(() => ({}));
  if (data.code === "bad_session") await fetch("/api/session", { method: "DELETE" });
  return null;
}

export function signedIn(answer) { localStorage.setItem("tt-csrf", answer.csrf); return answer.account; }
export function signedOut() { localStorage.removeItem("tt-csrf"); }
