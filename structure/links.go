package structure

import (
	"net/url"
	"strings"
)

// ResolveLinks returns spans with each link's target resolved against
// base (the page's or the document's URL, "" for none) into an absolute
// URL, and the links dropped that lead nowhere else: a script
// (javascript:, vbscript:, data:), a fragment of the same page, a target
// that does not parse, or a relative target without a base.
func ResolveLinks(spans []Span, base string) []Span {
	b := parseBase(base)
	out := spans[:0]
	for _, sp := range spans {
		if sp.Kind == Link {
			href, ok := resolve(sp.Href, b)
			if !ok {
				continue
			}
			sp.Href = href
		}
		out = append(out, sp)
	}
	return out
}

// parseBase parses base, a page's or a document's URL; nil when it is
// empty or not absolute.
func parseBase(base string) *url.URL {
	if base == "" {
		return nil
	}
	if u, err := url.Parse(base); err == nil && u.IsAbs() {
		return u
	}
	return nil
}

// resolve makes href absolute against base, and reports whether it leads
// to another resource.
func resolve(href string, base *url.URL) (string, bool) {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return "", false
	}
	u, err := url.Parse(href)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "javascript", "vbscript", "data":
		return "", false
	}
	if !u.IsAbs() {
		if base == nil {
			return "", false
		}
		u = base.ResolveReference(u)
	}
	if u.Host == "" && u.Opaque == "" {
		return "", false
	}
	if base != nil && u.Fragment != "" && *withoutFragment(u) == *withoutFragment(base) {
		// A fragment of the page itself.
		return "", false
	}
	s := u.String()
	return s, len(s) <= MaxHrefBytes
}

func withoutFragment(u *url.URL) *url.URL {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return &c
}
