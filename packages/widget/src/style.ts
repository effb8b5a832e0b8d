/** The widget's styles, inside its shadow root: the page's CSS cannot reach them, and they cannot reach the page. */
export const css = `
:host { all: initial; }
.root {
  --accent: #0f766e; --bg: #ffffff; --fg: #111827; --muted: #6b7280; --bubble: #f3f4f6; --line: #e5e7eb;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
}
.root[lang="fa"] { font-family: Vazirmatn, "Noto Sans Arabic", Tahoma, system-ui, sans-serif; }
@media (prefers-color-scheme: dark) {
  .root { --bg: #111827; --fg: #f9fafb; --muted: #9ca3af; --bubble: #1f2937; --line: #374151; }
}
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
button { font: inherit; cursor: pointer; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.launcher {
  position: fixed; bottom: 20px; right: 20px; z-index: 2147483000; width: 56px; height: 56px; border-radius: 50%;
  border: 0; background: var(--accent); color: #fff; box-shadow: 0 6px 20px rgba(0,0,0,.25);
  display: grid; place-items: center;
}
.root[dir="rtl"] .launcher, .root[dir="rtl"] .panel { right: auto; left: 20px; }
.launcher svg { width: 26px; height: 26px; }
.panel {
  position: fixed; bottom: 88px; right: 20px; z-index: 2147483000; width: 370px; height: min(600px, calc(100vh - 120px));
  display: flex; flex-direction: column; background: var(--bg); color: var(--fg); border-radius: 14px;
  box-shadow: 0 12px 40px rgba(0,0,0,.3); overflow: hidden; border: 1px solid var(--line);
}
.panel[hidden] { display: none; }
header { display: flex; align-items: center; gap: 6px; padding: 10px 12px; background: var(--accent); color: #fff; }
header h2 { flex: 1; margin: 0; font-size: 16px; font-weight: 600; overflow: hidden; text-overflow: ellipsis; }
header button {
  background: rgba(255,255,255,.16); color: #fff; border: 0; border-radius: 8px; padding: 4px 8px; font-size: 13px;
}
.alert { margin: 8px 12px 0; padding: 8px 10px; border-radius: 8px; background: #fef3c7; color: #78350f; }
.alert[hidden] { display: none; }
.log { list-style: none; margin: 0; padding: 12px; flex: 1; overflow-y: auto; display: flex; flex-direction: column; gap: 10px; }
.msg { max-width: 85%; text-align: start; padding: 8px 12px; border-radius: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user { align-self: flex-end; background: var(--accent); color: #fff; }
.msg.assistant { align-self: flex-start; background: var(--bubble); }
details { margin-top: 6px; font-size: 13px; }
summary { cursor: pointer; color: var(--muted); }
details p { margin: 4px 0; padding: 6px 8px; border-inline-start: 3px solid var(--accent); background: var(--bg); }
.cards { display: flex; gap: 8px; overflow-x: auto; margin-top: 8px; padding-bottom: 4px; }
.card {
  flex: 0 0 140px; display: flex; flex-direction: column; border: 1px solid var(--line); border-radius: 10px;
  background: var(--bg); color: var(--fg); text-decoration: none; overflow: hidden; font-size: 13px;
}
.card img { width: 100%; height: 90px; object-fit: cover; background: var(--line); }
.card span { padding: 4px 8px; }
.card .price { font-weight: 600; color: var(--accent); }
.typing { padding: 0 12px 6px; color: var(--muted); }
.typing[hidden] { display: none; }
.dots span { display: inline-block; width: 6px; height: 6px; margin: 0 2px; border-radius: 50%; background: var(--muted);
  animation: blink 1.2s infinite both; }
.dots span:nth-child(2) { animation-delay: .2s; } .dots span:nth-child(3) { animation-delay: .4s; }
@keyframes blink { 0%, 80%, 100% { opacity: .2; } 40% { opacity: 1; } }
@media (prefers-reduced-motion: reduce) { .dots span { animation: none; } }
form { display: flex; gap: 8px; padding: 10px 12px; border-top: 1px solid var(--line); }
textarea {
  flex: 1; resize: none; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line);
  border-radius: 10px; padding: 8px 10px; min-height: 22px; max-height: 120px;
}
form button { border: 0; border-radius: 10px; padding: 0 14px; background: var(--accent); color: #fff; }
form button:disabled { opacity: .6; cursor: default; }
.votes { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; margin-top: 6px; font-size: 13px; }
.vote { border: 1px solid var(--line); border-radius: 8px; background: var(--bg); padding: 0 6px; }
.vote[aria-pressed="true"] { border-color: var(--accent); background: var(--accent); }
.thanks { color: var(--muted); }
.votes form { flex-basis: 100%; padding: 4px 0 0; border: 0; }
.votes form[hidden] { display: none; }
@media (max-width: 480px) {
  .panel { inset: 0; width: 100%; height: 100%; border-radius: 0; border: 0; }
  .root[dir="rtl"] .panel { left: 0; }
}
`
