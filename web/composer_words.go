package web

import (
	"fmt"
	"strings"

	"github.com/crier/crier/app"
)

// ruleWords is a network's media rule issue (app.Rule*) in plain language: what the network needs,
// then what this upload is ("Instagram needs a JPEG image — this one is a PNG"). The one place
// the composer words the rule codes; an issue without a rule keeps the Service's message.
func ruleWords(n app.Network, is app.Issue) string {
	name := n.DisplayName()
	switch is.Rule {
	case app.RuleFormat:
		return fmt.Sprintf("%s needs %s %s — this one is %s", name, mediaArticle(is.Want), is.Want+" "+is.Media, mediaArticle(is.Got)+" "+is.Got)
	case app.RuleKind:
		return fmt.Sprintf("%s takes %s here — this one is %s", name, orList(is.Want), mediaArticle(is.Media)+" "+is.Media)
	case app.RuleSizeMax:
		return fmt.Sprintf("%s takes %ss up to %s — this one is %s", name, is.Media, is.Want, is.Got)
	case app.RuleSizeMin:
		return fmt.Sprintf("%s needs %ss of at least %s — this one is %s", name, is.Media, is.Want, is.Got)
	case app.RuleDurationMax:
		return fmt.Sprintf("%s takes %s up to %s long — this one lasts %s", name, is.Media, is.Want, is.Got)
	case app.RuleDurationMin:
		return fmt.Sprintf("%s needs %s at least %s long — this one lasts %s", name, is.Media, is.Want, is.Got)
	case app.RuleAspect:
		want, _, _ := strings.Cut(is.Want, " (")
		return fmt.Sprintf("%s needs %ss shaped from %s — this one is %s", name, is.Media, want, is.Got)
	case app.RuleSidesMin:
		return fmt.Sprintf("%s needs %ss of at least %s — this one is %s", name, is.Media, is.Want, is.Got)
	case app.RuleSidesMax:
		return fmt.Sprintf("%s takes %ss up to %s — this one is %s", name, is.Media, is.Want, is.Got)
	case app.RuleCountMin:
		want, _, _ := strings.Cut(is.Want, " (")
		want, _, _ = strings.Cut(want, ":")
		return fmt.Sprintf("%s needs %s", name, want)
	case app.RuleCountMax:
		want, _, _ := strings.Cut(is.Want, " (")
		return fmt.Sprintf("%s takes %s — this post has %s", name, want, is.Got)
	}
	return is.Message
}

// orList joins "image, GIF, video" as "an image, a GIF or a video".
func orList(kinds string) string {
	parts := strings.Split(kinds, ", ")
	for i, p := range parts {
		parts[i] = mediaArticle(p) + " " + p
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// mediaArticle is "a" or "an" before w: by sound, so an initialism said letter by letter ("MP4", "MOV")
// takes "an" when its first letter's name starts with a vowel.
func mediaArticle(w string) string {
	if w == "" {
		return "a"
	}
	if len(w) > 1 && strings.ToUpper(w[:2]) == w[:2] && w[1] != ' ' { // an initialism
		if w == "GIF" || w == "JPEG" || w == "PNG" || w == "PDF" {
			return "a"
		}
		if strings.ContainsRune("AEFHILMNORSX", rune(w[0])) {
			return "an"
		}
		return "a"
	}
	if strings.ContainsRune("aeiouAEIOU", rune(w[0])) {
		return "an"
	}
	return "a"
}
