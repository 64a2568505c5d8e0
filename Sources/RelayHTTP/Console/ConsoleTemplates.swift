import Mustache

/// The console's pages: Mustache, HTML-escaped by default, no script anywhere (the
/// Content-Security-Policy forbids it). Every form carries the CSRF token.
enum ConsoleTemplates {
    /// Parsed once. The templates are constants of this file, so a parse error is a bug in
    /// it (the console tests render every page), never something input could cause.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in [("header", header), ("footer", footer), ("login", login), ("items", items), ("item", item),
                             ("message", message)] {
            do {
                try library.register(text, named: name)
            } catch {
                preconditionFailure("console template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    static let header = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · entrupy-relay</title><link rel="stylesheet" href="/console/style.css"></head>
        <body><header><a class="brand" href="/console/items">entrupy-relay</a>
        {{#caller}}<span class="who">{{name}} ({{role}})</span>
        <form method="post" action="/console/logout" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" id="sign-out">Sign out</button></form>{{/caller}}</header><main>
        {{#notice}}<p class="notice" id="notice">{{notice}}</p>{{/notice}}
        {{#problem}}<p class="problem" id="problem">{{problem}}</p>{{/problem}}
        """

    static let footer = "</main></body></html>\n"

    static let login = """
        {{> header}}
        <h1>Sign in</h1>
        <form method="post" action="/console/login" class="card">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label>API token <input type="password" name="token" id="token" autocomplete="off" required></label>
        <button type="submit" id="sign-in">Sign in</button>
        <p class="hint">Create one with <code>entrupy-relay tokens create --role support --name you</code>.</p>
        </form>
        {{> footer}}
        """

    static let items = """
        {{> header}}
        <h1>Items</h1>
        <form method="get" action="/console/items" class="filters" id="search">
        <label>Customer item ID <input name="customer_item_id" value="{{filters.customer_item_id}}"></label>
        <label>Result <select name="result"><option value="">any</option>{{#results}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/results}}</select></label>
        <label>Flag <select name="flag"><option value="">any</option>{{#flags}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/flags}}</select></label>
        <label>Brand <input name="brand" value="{{filters.brand}}"></label>
        <label>Category <input name="category" value="{{filters.category}}"></label>
        <label>Username <input name="username" value="{{filters.username}}"></label>
        <label>Last days <input name="last_days" value="{{filters.last_days}}" size="4"></label>
        <button type="submit" id="search-button">Search</button>
        </form>
        <p class="count" id="count">{{total}} item(s) match{{#shown}}; showing {{shown}}{{/shown}}.</p>
        {{#hasItems}}
        <table id="results"><thead><tr><th>Entrupy ID</th><th>Customer item ID</th><th>Result</th><th>Flag</th><th>Brand</th><th>Category</th><th>Username</th><th>Submitted</th></tr></thead><tbody>
        {{#items}}<tr><td><a href="/console/items/{{link}}">{{entrupy_id}}</a></td><td>{{customer_item_id}}</td><td>{{result}}{{^final}} <em>(not final)</em>{{/final}}</td><td>{{flag}}</td><td>{{brand}}</td><td>{{category}}</td><td>{{username}}</td><td>{{listed_at}}</td></tr>
        {{/items}}</tbody></table>
        {{/hasItems}}
        {{#next}}<p><a href="/console/items?{{next}}" id="next-page">Next page →</a></p>{{/next}}
        {{> footer}}
        """

    static let item = """
        {{> header}}
        <p><a href="/console/items">← Items</a></p>
        <h1 id="item-title">{{item.entrupy_id}}</h1>
        <dl class="facts">
        <dt>Customer item ID</dt><dd>{{item.customer_item_id}}</dd>
        <dt>Result</dt><dd id="result">{{item.result}}{{#item.final}} (final){{/item.final}}</dd>
        <dt>Flag</dt><dd>{{item.flag}}</dd>
        <dt>Brand / model</dt><dd>{{item.brand}} / {{item.model}}</dd>
        <dt>Category</dt><dd>{{item.category}}</dd>
        <dt>Username</dt><dd>{{item.username}}</dd>
        <dt>Certificate</dt><dd>{{item.certificate_url}}</dd>
        <dt>First seen / last fetched</dt><dd>{{item.first_seen_at}} / {{item.fetched_at}}</dd>
        </dl>
        {{#canReconcile}}<form method="post" action="/console/items/{{item.link}}/reconcile" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" id="reconcile">Fetch from Entrupy again</button></form>{{/canReconcile}}
        <h2>Timeline</h2>
        <table id="timeline"><thead><tr><th>When</th><th>What</th><th>Detail</th></tr></thead><tbody>
        {{#timeline}}<tr class="{{css}}"><td>{{at}}</td><td>{{kind}}</td><td>{{summary}}</td></tr>
        {{/timeline}}</tbody></table>
        {{#showDeliveries}}
        <h2>Deliveries</h2>
        {{^deliveries}}<p>No notifications for this item.</p>{{/deliveries}}
        {{#deliveries}}<section class="delivery" id="delivery-{{id}}">
        <h3>#{{id}} {{rule}}: {{channel}} to {{target}} — <span class="state state-{{state}}">{{state}}</span></h3>
        <p>{{transition}} · {{attempt_count}} attempt(s) · key <code>{{idempotency_key}}</code>{{#last_error}} · last error: {{last_error}}{{/last_error}}</p>
        {{#canRetry}}<form method="post" action="/console/deliveries/{{id}}/retry" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="item" value="{{itemID}}">
        <button type="submit" class="retry" id="retry-{{id}}">Retry now</button></form>{{/canRetry}}
        <table class="attempts"><thead><tr><th>#</th><th>Started</th><th>Outcome</th><th>Took</th><th>Status / reply</th><th>Error</th></tr></thead><tbody>
        {{#attempts}}<tr><td>{{attempt}}</td><td>{{started_at}}</td><td>{{outcome}}</td><td>{{duration_ms}} ms</td><td>{{status}}</td><td>{{error}}</td></tr>
        {{/attempts}}</tbody></table></section>
        {{/deliveries}}
        {{/showDeliveries}}
        {{> footer}}
        """

    static let message = """
        {{> header}}
        <h1>{{title}}</h1>
        <p><a href="/console/items">← Items</a></p>
        {{> footer}}
        """

    static let css = """
        body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
        header{display:flex;gap:1rem;align-items:center;padding:.6rem 1.2rem;background:#1d2330;color:#fff}
        header a.brand{color:#fff;font-weight:600;text-decoration:none;margin-right:auto}
        main{padding:1rem 1.2rem;max-width:1200px}
        table{border-collapse:collapse;width:100%;background:#fff;margin:.5rem 0 1rem}
        th,td{border-bottom:1px solid #e3e6ea;padding:.35rem .5rem;text-align:left;vertical-align:top;font-size:14px}
        th{background:#eef0f3}
        .filters{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end;background:#fff;padding:.8rem;border:1px solid #e3e6ea}
        .filters label{display:flex;flex-direction:column;font-size:13px}
        .card{background:#fff;padding:1rem;border:1px solid #e3e6ea;max-width:28rem;display:flex;flex-direction:column;gap:.6rem}
        form.inline{display:inline}
        .notice{background:#e6f4ea;border:1px solid #9bd3ae;padding:.5rem .8rem}
        .problem{background:#fdecea;border:1px solid #f3a59d;padding:.5rem .8rem}
        dl.facts{display:grid;grid-template-columns:14rem 1fr;gap:.2rem 1rem;background:#fff;padding:.8rem;border:1px solid #e3e6ea}
        dl.facts dt{color:#5a6270}
        .delivery{background:#fff;border:1px solid #e3e6ea;padding:.2rem .8rem;margin:.8rem 0}
        .state-dead{color:#b3261e;font-weight:600}.state-delivered{color:#1e7b34}.state-failed{color:#9a6700}
        tr.delivery-dead td,tr.delivery-failed td{color:#9a3412}
        button{padding:.35rem .8rem;cursor:pointer}
        """
}
