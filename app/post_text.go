package app

// How networks count text: each network's spec measures its main text (NetworkSpec.TextLength);
// these are the pieces they share.

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// TextLength answers how long text is as network n counts its main text, and the limit (the account
// matters for X: premium accounts write long posts; limit 0: none). The composer shows it as a live
// counter.
func TextLength(n Network, text string, a *SocialAccount) (used, limit int) {
	if s := SpecOf(n); s != nil && s.TextLength != nil {
		return s.TextLength(text, a)
	}
	return utf8.RuneCountInString(text), 0
}

// CountRunes is the TextLength of a network that counts characters (code points) against limit.
func CountRunes(limit int) func(text string, a *SocialAccount) (used, limit int) {
	return func(text string, _ *SocialAccount) (int, int) { return utf8.RuneCountInString(text), limit }
}

// URLs as X and Mastodon shorten them: http(s) URLs, and (X only) bare domains of common TLDs. An
// approximation of twitter-text's extractor (which knows every TLD).
var (
	urlWithScheme = regexp.MustCompile(`(?i)\bhttps?://[^\s<>"]+`)
	urlBare       = regexp.MustCompile(`(?i)(?:^|[^\w@./-])((?:www\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|edu|gov|info|biz|io|co|ai|app|dev|me|tv|xyz|ly|gg|shop|blog|news)(?::\d{1,5})?(?:/[^\s<>"]*)?)`)
)

// URLSpans answers the byte ranges of URLs in s (trailing punctuation excluded); bare also finds
// domains without a scheme.
func URLSpans(s string, bare bool) [][2]int {
	var spans [][2]int
	for _, m := range urlWithScheme.FindAllStringIndex(s, -1) {
		spans = append(spans, [2]int{m[0], m[0] + len(trimURL(s[m[0]:m[1]]))})
	}
	if bare {
		for _, m := range urlBare.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2], m[3]
			inside := false
			for _, sp := range spans {
				if start < sp[1] && end > sp[0] {
					inside = true
				}
			}
			if !inside {
				spans = append(spans, [2]int{start, start + len(trimURL(s[start:end]))})
			}
		}
	}
	return spans
}

func trimURL(u string) string {
	return strings.TrimRight(u, ".,!?;:)]}'\"…")
}

// WithoutURLs answers s with its URLs (URLSpans) removed, and how many there were.
func WithoutURLs(s string, bare bool) (string, int) {
	spans := URLSpans(s, bare)
	if len(spans) == 0 {
		return s, 0
	}
	cut := make([]bool, len(s))
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			cut[i] = true
		}
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if !cut[i] {
			b = append(b, s[i])
		}
	}
	return string(b), len(spans)
}

// IsEmoji reports whether a grapheme cluster is an emoji (pictographs, flags, keycaps, emoji
// presentation sequences).
func IsEmoji(cluster string) bool {
	r, _ := utf8.DecodeRuneInString(cluster)
	if strings.ContainsRune(cluster, 0xFE0F) || strings.ContainsRune(cluster, 0x20E3) {
		return true
	}
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF, // pictographs, emoticons, flags (regional indicators)
		r >= 0x2600 && r <= 0x27BF, // misc symbols, dingbats
		r >= 0x2B00 && r <= 0x2BFF, r >= 0x2300 && r <= 0x23FF:
		return true
	}
	return false
}
