// Helpers shared by the pages: the HTTP API, seat tokens, names, small DOM tools.

export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Seat-Token"] = token;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || `the server said ${response.status}`);
  return data;
}

// A seat is held by a secret token, kept in this browser only (or carried by a seat link).
export function getToken(tableId) { return localStorage.getItem(`tt-token-${tableId}`); }
export function setToken(tableId, token) { localStorage.setItem(`tt-token-${tableId}`, token); }
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
