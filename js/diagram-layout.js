// Written by the build right after each diagram's two layouts (src/app/diagrams.rs), where it
// runs as the page is parsed, before the first paint: it puts in the layout the window's width
// suggests (the page's margins and the card's padding take about 77 px; below 520 px of box, the
// narrow one) and removes the copy for readers without JavaScript, then itself. js/diagrams.js
// does the same for a diagram that comes with a page fetched for a move in the app. The build
// inlines the code below as it stands, without these comment lines (each page's CSP names its
// hash), so it stays one short line.
(function(s){var b=s.parentNode,t=b.querySelector('template[data-layout="'+(innerWidth-77<520?'narrow':'wide')+'"]'),v=t&&t.content.querySelector('svg'),n=b.querySelector('noscript');if(v){b.insertBefore(v,t);t.remove()}if(n)n.remove();s.remove()})(document.currentScript)
