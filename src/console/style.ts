// The console's one stylesheet, served from /console/style.css (the Content-Security-Policy allows styles
// from 'self' only: no inline styles, no scripts at all). Written for right-to-left Hebrew and a phone first.
export const CONSOLE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-size:100%;-webkit-text-size-adjust:100%}
body{margin:0;font-family:"Noto Sans Hebrew","Arial Hebrew",Arial,"Segoe UI",system-ui,sans-serif;line-height:1.5;color:#1c2430;background:#f4f5f7}
header.top{background:#1f3a5f;color:#fff;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
header.top a{color:#fff;text-decoration:none}
header.top .brand{font-weight:700;font-size:1.1rem}
nav.main{display:flex;flex-wrap:wrap;gap:.25rem .9rem}
nav.main a{padding:.25rem 0;border-bottom:2px solid transparent}
nav.main a[aria-current="page"]{border-bottom-color:#ffd166}
.who{display:flex;gap:.5rem;align-items:center;font-size:.9rem}
.who form{margin:0}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.25rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
h3{font-size:1rem;margin:1rem 0 .25rem}
a{color:#1f5fa8}
.card{background:#fff;border:1px solid #d9dde3;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.card>:first-child{margin-top:0}
a.card{display:block;text-decoration:none;color:inherit}
a.card h2{color:#1f5fa8}
.grid>.card{margin:0}
.card.pending{border-inline-start:.35rem solid #e0a100}
.card.approved,.card.used{border-inline-start:.35rem solid #2e8540}
.card.rejected{border-inline-start:.35rem solid #b3261e}
.meta{color:#5a6472;font-size:.9rem}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:1rem;font-size:.85rem;background:#e8ebef}
.badge.pending{background:#fff1c2}.badge.approved,.badge.used,.badge.ok,.badge.pass{background:#d8f0dc}
.badge.rejected,.badge.fail,.badge.revoked{background:#f8d7d5}
dl.args{display:grid;grid-template-columns:minmax(6rem,max-content) 1fr;gap:.25rem .75rem;margin:.5rem 0}
dl.args dt{font-weight:600;direction:ltr;text-align:end;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
dl.args dd{margin:0;overflow-wrap:anywhere}
pre,code,.ltr{direction:ltr;unicode-bidi:isolate}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f0f2f5;padding:.5rem;border-radius:.25rem;font-size:.85rem;text-align:left}
.text{white-space:pre-wrap;direction:rtl;text-align:right;background:#fbfbfc;border:1px solid #e3e6ea;padding:.75rem;border-radius:.25rem}
table{width:100%;border-collapse:collapse;background:#fff}
th,td{padding:.45rem .5rem;border-bottom:1px solid #e3e6ea;text-align:start;vertical-align:top}
th{font-size:.85rem;color:#5a6472;font-weight:600}
.scroll{overflow-x:auto}
form.decide{display:grid;gap:.5rem;margin-top:.75rem}
label{font-weight:600;font-size:.9rem}
textarea,input[type=text],input[type=password]{width:100%;font:inherit;padding:.5rem;border:1px solid #b8bfc8;border-radius:.35rem}
textarea{min-height:4.5rem}
.buttons{display:flex;flex-wrap:wrap;gap:.5rem}
button{font:inherit;padding:.55rem 1.1rem;border-radius:.35rem;border:1px solid #1f3a5f;background:#1f3a5f;color:#fff;cursor:pointer;min-height:2.75rem}
button.secondary{background:#fff;color:#1f3a5f}
button.danger{background:#b3261e;border-color:#b3261e}
button.link{background:none;border:none;color:#fff;text-decoration:underline;padding:0;min-height:0}
.notice{padding:.75rem 1rem;border-radius:.35rem;margin:0 0 1rem;background:#e6f0fa;border:1px solid #b9d3ee}
.notice.error{background:#fbe9e7;border-color:#f0b8b2}
.notice.ok{background:#e5f4e8;border-color:#b7dfc0}
.empty{color:#5a6472;font-style:italic}
ul.plain{list-style:none;padding:0;margin:0}
ul.plain li{padding:.35rem 0;border-bottom:1px solid #eef0f3}
.grid{display:grid;gap:1rem}
dl.meaning{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.35rem .75rem;margin:.5rem 0}
dl.meaning dt{font-weight:600}
dl.meaning dd{margin:0;overflow-wrap:anywhere}
.effect{background:#fff8e1;border:1px solid #f0d48a;border-radius:.35rem;padding:.5rem .75rem}
details{margin:.5rem 0}
details>summary{cursor:pointer;color:#1f5fa8}
details.expert>summary{font-size:.85rem}
.draft .block{border-inline-start:.25rem solid #d9dde3;padding:.25rem .75rem;margin:0 0 .75rem}
.draft .block.flagged{border-inline-start-color:#b3261e}
.draft .block.placeholder{color:#5a6472;font-style:italic}
.draft h3{margin:.5rem 0 .25rem}
.draft h4{font-size:.95rem;margin:.5rem 0 .25rem}
.draft .block>.meta{margin:0;font-size:.8rem}
.para{margin:.35rem 0;text-align:justify}
.para .num{font-weight:700}
aside.findings{background:#fbe9e7;border:1px solid #f0b8b2;border-radius:.35rem;padding:.25rem .75rem;margin:.5rem 0}
aside.findings li{border-bottom-color:#f0b8b2}
ol.blocks{margin:0;padding-inline-start:1.25rem}
input[type=file],select{font:inherit;padding:.35rem;border:1px solid #b8bfc8;border-radius:.35rem;background:#fff;max-width:100%}
q{font-style:italic;quotes:'"' '"'}
@media (min-width:48rem){.grid.two{grid-template-columns:1fr 1fr}}
`;
