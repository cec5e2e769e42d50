import RuleListParser
import Testing

/// css-display-none selector validity (spec §1.5; WebKit `isValidCSSSelector`, quirks mode).
@Suite struct SelectorTests {
    static let validSelectors: [String] = [
        "a[href*=hsv]", "a[href*='apple.com']", ".hidden", "#ad", "*", "div", "DIV.Ad", "div > p", "div + p",
        "div ~ p", "div p", "div>p+a~b", ".a,.b", "  .a  ,  .b  ", "*|a", "|a", "[*|href]", "[|href]",
        "a[data-x=\"1\" i]", "a[b|=c]", "a[b~=c]", "a[b^=c]", "a[b$=c]", "a[b*=c]", "[ href ]",
        "a:hover", ":root", "a:first-child:last-child", "li:only-of-type", "input:-webkit-autofill",
        "a:not(.b)", "a:not(.b, .c > d)", ":not(:has(a))", ":is(.a, .b)", ":matches(.a)", ":where(.a)",
        ":is(:unknown-pseudo)", ":where()", "a:-webkit-any(.b, .c)", ":has(> img)", "div:has(+ p, ~ span)",
        "div:has(a b)", "li:nth-child(2n+1)", "li:nth-child(odd)", "li:nth-child(EVEN)", "li:nth-child(-n+3)",
        "li:nth-child(n)", "li:nth-child(+n)", "li:nth-child(3)", "li:nth-child(-2n - 1)", "li:nth-child(2n- 1)",
        "li:nth-child(n-1)", "li:nth-child( 2n + 1 of .x )", "li:nth-last-of-type(3)", "li:nth-of-type(2n)",
        ":lang(en)", ":lang(en, \"fr\")", ":dir(rtl)", ":host", ":host(.a)", "p::before", "p:before", "p::after",
        "p:first-line", "p::first-letter", "::selection", "::marker", "input::placeholder",
        "input::-webkit-input-placeholder", "::-webkit-scrollbar", "::-webkit-scrollbar-thumb:horizontal",
        "::-webkit-some-unknown-part", "::part(label)", "::slotted(span)", "::highlight(x)", "div.\\31 23",
        "#\\31 a", ".a\\:b", "a /* comment */ b", "a/**/.b", "div:not(:first-child)",
        ".category-ad:not(html):not(body)",
        "div > iframe:first-child", "a[href^=\"http://pubads.g.doubleclick.net/\"]", "&", "a:focus-visible",
        "a[href", ":not(.a", "p::before:is(.x)", "p::-webkit-scrollbar:hover", "li:nth-child(odd of.x)",
        "li:nth-child(n -1)", ":-webkit-any(::before)", "::part(a)::before", "::slotted(a)::before",
        "p::selection:window-inactive",
    ]

    static let invalidSelectors: [String] = [
        "", " ", "a[", "a,", ",a", "a b,", "a,,b", "#1ab", "..a", ". a", "a:foo", ":-abp-has(a)",
        "aside:-abp-has([data-empty])", "div:contains(x)", "a:has()", "a:not()", ":not", ":has", ":hover()",
        "::before.x", "::before#x", ":has(:has(a))", ":has(::before)", ":not(::before)", "ns|a", "[ns|href]",
        "a >", "> a", "a > > b", "a {", "a!", "a:nth-child(2n+)", "a:nth-child(foo)", "a:nth-child()",
        "a:nth-of-type(2n of .x)", "a[b=]", "a[b c]", "a[b='c' x]", "a[=b]", "::foo", ":-internal-html-document",
        "::before::after", "a)", "a]", "a:dir()", ":lang()", "::part()", "@a", "a;", "'a'", "a:nth-child(1.5)",
        "li:nth-child(2n + 1of .x)", "a/**/b", "a[data-x=y s]", "p::before > a", "p::before a", "p::before:first-child",
        "li:nth-child(2n + - 1)", "li:nth-child(n + -1)", "li:nth-child(+ n)", ":lang(--x)", "::slotted(a)::selection",
        "::part(a)::part(b)",
    ]

    @Test(arguments: validSelectors)
    func valid(_ selector: String) {
        #expect(CSSSelectorValidator.isValidSelectorList(selector))
    }

    @Test(arguments: invalidSelectors)
    func invalid(_ selector: String) {
        #expect(!CSSSelectorValidator.isValidSelectorList(selector))
    }

    @Test func deepNestingDoesNotRecurse() {
        let deep = String(repeating: ":not(", count: 50_000) + "a" + String(repeating: ")", count: 50_000)
        #expect(CSSSelectorValidator.isValidSelectorList(deep))
    }
}
