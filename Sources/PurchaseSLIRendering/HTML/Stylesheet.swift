/// The one stylesheet of every page: light and dark (`prefers-color-scheme`), a phone's width, print.
enum Stylesheet {
    static let css = """
        :root{--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--line:#d8dde3;--card:#f6f8fa;--ok:#1a7f37;--warn:#9a6700;\
        --bad:#cf222e;--band:rgba(207,34,46,.12);--band-ticket:rgba(154,103,0,.12);--band-maintenance:rgba(87,96,106,.16);--s0:#0969da;--s1:#8250df;--s2:#bc4c00;\
        --s3:#1a7f37;--s4:#cf222e;--s5:#57606a;color-scheme:light dark}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9aa5b1;--line:#30363d;--card:#161b22;\
        --ok:#3fb950;--warn:#d29922;--bad:#f85149;--band:rgba(248,81,73,.18);--band-ticket:rgba(210,153,34,.16);--band-maintenance:rgba(139,148,158,.2);\
        --s0:#58a6ff;--s1:#bc8cff;--s2:#ffa657;--s3:#3fb950;--s4:#ff7b72;--s5:#8b949e}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        header,main,footer{max-width:1280px;margin:0 auto;padding:12px 16px}
        header{border-bottom:1px solid var(--line)}
        h1{font-size:20px;margin:4px 0}h2{font-size:16px;margin:20px 0 8px}h3{font-size:14px;margin:12px 0 6px}
        h4{font-size:13px;margin:16px 0 6px}
        nav a{margin-right:14px}a{color:var(--s0)}
        .muted,.meta{color:var(--muted)}.meta{font-size:12px}
        .grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:12px}
        .card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:10px 12px;min-width:0}
        .card h3{margin-top:0}.card table{font-size:13px}.card th,.card td{padding:3px 4px}.card th{white-space:normal}
        .alert,.banner{overflow-wrap:anywhere}
        .big{font-size:26px;font-weight:600;font-variant-numeric:tabular-nums}
        .ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}
        .status{display:inline-block;border-radius:4px;padding:1px 7px;font-weight:600;font-size:12px;color:var(--bg)}
        .status.ok{background:var(--ok)}.status.warn{background:var(--warn)}.status.bad{background:var(--bad)}
        .status.none{background:var(--muted)}
        .banner{border-left:5px solid var(--ok);background:var(--card);padding:10px 14px;margin:12px 0;border-radius:4px}
        .banner.bad{border-color:var(--bad);color:var(--fg)}.banner.warn{border-color:var(--warn);color:var(--fg)}
        .banner.ok{color:var(--fg)}.banner.none{border-color:var(--muted)}
        .banner.bad strong{color:var(--bad)}.banner.warn strong{color:var(--warn)}
        .banner strong{font-size:16px}
        .alert{border-left:4px solid var(--warn);padding:6px 10px;margin:8px 0;background:var(--card);border-radius:4px}
        .alert.page{border-color:var(--bad)}.alert p{margin:2px 0}.alert ul{margin:4px 0;padding-left:18px}
        .scroll{overflow-x:auto}p.csv{margin:2px 0 8px;font-size:12px;text-align:right}details.chart-data summary{font-size:12px;color:var(--muted);cursor:pointer}details.chart-data table{font-size:12px}details.chart-data+p.csv{margin-top:-18px}
        table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
        th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
        th{font-weight:600;color:var(--muted);font-size:12px}
        th:first-child,td:first-child,td.text,th.text{text-align:left}
        td.text{white-space:normal;overflow-wrap:break-word;max-width:520px}
        svg{display:block;width:100%;height:auto;overflow:visible}
        .chart>svg.narrow{display:none}
        svg text{fill:var(--muted);font:11px system-ui,sans-serif}
        svg .grid-line{stroke:var(--line);stroke-width:1}
        svg .axis{stroke:var(--muted);stroke-width:1}
        svg .series{fill:none;stroke-width:1.8;stroke-linejoin:round}svg .series.dashed{stroke-dasharray:5 4;opacity:.6}\
        svg line.marker{stroke:var(--muted);stroke-width:1;stroke-dasharray:3 3}svg text.marker-label{fill:var(--muted);font-size:10px}
        svg .s0{stroke:var(--s0)}svg .s1{stroke:var(--s1)}svg .s2{stroke:var(--s2)}svg .s3{stroke:var(--s3)}
        svg .s4{stroke:var(--s4)}svg .s5{stroke:var(--s5)}
        svg .f0{fill:var(--s0)}svg .f1{fill:var(--s1)}svg .f2{fill:var(--s2)}svg .f3{fill:var(--s3)}
        svg .f4{fill:var(--s4)}svg .f5{fill:var(--s5)}svg .fbad{fill:var(--bad)}svg .fok{fill:var(--ok)}svg .fmuted{fill:var(--line)}
        svg .interval{stroke-width:7;stroke-linecap:round;opacity:.22}
        svg .threshold{stroke:var(--bad);stroke-width:1.2;stroke-dasharray:5 4}
        svg .band{fill:var(--band)}svg .band.ticket{fill:var(--band-ticket)}svg .band.maintenance{fill:var(--band-maintenance)}
        svg text.band-label{fill:var(--bad);font-size:10px}svg text.band-label.ticket{fill:var(--warn)}svg text.band-label.maintenance{fill:var(--muted)}
        svg .hover{fill:transparent}svg .hover:hover{fill:rgba(127,127,127,.12)}
        svg .whisker{stroke:var(--fg);stroke-width:1.2}
        .spark{width:120px;height:24px;display:inline-block;vertical-align:middle}
        .legend{font-size:12px;color:var(--muted);margin:2px 0 4px}
        .legend span{margin-right:12px;white-space:nowrap}
        .legend i{display:inline-block;width:10px;height:3px;vertical-align:middle;margin-right:4px}
        .legend .k0{background:var(--s0)}.legend .k1{background:var(--s1)}.legend .k2{background:var(--s2)}
        .legend .k3{background:var(--s3)}.legend .k4{background:var(--s4)}.legend .k5{background:var(--s5)}
        .legend .kt{background:var(--bad)}.legend .kb{background:var(--band);height:10px}.legend .km{background:var(--band-maintenance);height:10px}\
        .legend .kr{width:2px;height:12px;background:var(--muted)}.legend i.dashed{opacity:.5}
        footer{color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
        @media (max-width:640px){body{font-size:13px}.big{font-size:22px}header,main,footer{padding:8px 10px}
        svg text{font-size:16px}svg text.band-label{font-size:14px}svg text.marker-label{font-size:14px}main{display:flex;flex-direction:column}
        .chart>svg.wide{display:none}.chart>svg.narrow{display:block}
        main>.firing-first{order:-1}}
        @media print{:root{--bg:#fff;--fg:#000;--card:#fff}nav{display:none}.card,.alert,table{break-inside:avoid}
        .scroll{overflow:visible}svg .hover{display:none}}
        """
}
