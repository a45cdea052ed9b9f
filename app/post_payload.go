package app

import "encoding/json"

// Per-network post payloads: the spec's payload table, one struct per network, shared by the
// validation (post_validate.go), the publishing pipeline and the adapters (which read the payload
// of their own network from PublishRequest), and the composer. JSON names are the wire names of the
// contract's PostData schema (api/openapi.json); defaults are applied by Defaults.

// PostData is a post's payload per network (the spec's data object). A nil entry means the
// network is not a target.
type PostData struct {
	Twitter        *TwitterPayload        `json:"TWITTER,omitempty"`
	Pinterest      *PinterestPayload      `json:"PINTEREST,omitempty"`
	Facebook       *FacebookPayload       `json:"FACEBOOK,omitempty"`
	Instagram      *InstagramPayload      `json:"INSTAGRAM,omitempty"`
	Threads        *ThreadsPayload        `json:"THREADS,omitempty"`
	TikTok         *TikTokPayload         `json:"TIKTOK,omitempty"`
	LinkedIn       *LinkedInPayload       `json:"LINKEDIN,omitempty"`
	YouTube        *YouTubePayload        `json:"YOUTUBE,omitempty"`
	Reddit         *RedditPayload         `json:"REDDIT,omitempty"`
	Discord        *ChatPayload           `json:"DISCORD,omitempty"`
	Slack          *ChatPayload           `json:"SLACK,omitempty"`
	Mastodon       *MastodonPayload       `json:"MASTODON,omitempty"`
	Bluesky        *BlueskyPayload        `json:"BLUESKY,omitempty"`
	GoogleBusiness *GoogleBusinessPayload `json:"GOOGLE_BUSINESS,omitempty"`
	Snapchat       *SnapchatPayload       `json:"SNAPCHAT,omitempty"`
}

// Payload is what every network's payload has: the text and the media.
type Payload interface {
	// Body is the main text ("" when none).
	Body() string
	// Uploads are the upload ids in order (mediaItems, carousel items or uploadIds).
	Uploads() []string
}

// Of answers the payload of one network (nil when the network is not a target).
func (d *PostData) Of(n Network) Payload {
	if d == nil {
		return nil
	}
	switch n {
	case Twitter:
		return nilIf(d.Twitter)
	case Pinterest:
		return nilIf(d.Pinterest)
	case Facebook:
		return nilIf(d.Facebook)
	case Instagram:
		return nilIf(d.Instagram)
	case Threads:
		return nilIf(d.Threads)
	case TikTok:
		return nilIf(d.TikTok)
	case LinkedIn:
		return nilIf(d.LinkedIn)
	case YouTube:
		return nilIf(d.YouTube)
	case Reddit:
		return nilIf(d.Reddit)
	case Discord:
		return nilIf(d.Discord)
	case Slack:
		return nilIf(d.Slack)
	case Mastodon:
		return nilIf(d.Mastodon)
	case Bluesky:
		return nilIf(d.Bluesky)
	case GoogleBusiness:
		return nilIf(d.GoogleBusiness)
	case Snapchat:
		return nilIf(d.Snapchat)
	}
	return nil
}

// nilIf keeps a typed nil pointer from becoming a non-nil interface.
func nilIf[T any, P interface {
	*T
	Payload
}](p P) Payload {
	if p == nil {
		return nil
	}
	return p
}

// Networks lists the targets of the data, in the spec's order.
func (d *PostData) Networks() []Network {
	var out []Network
	for _, n := range Networks {
		if d.Of(n) != nil {
			out = append(out, n)
		}
	}
	return out
}

// Raw answers one network's payload as JSON (for storage per target).
func (d *PostData) Raw(n Network) json.RawMessage {
	p := d.Of(n)
	if p == nil {
		return nil
	}
	b, _ := json.Marshal(p)
	return b
}

// MediaItem is an upload with its alt text.
type MediaItem struct {
	UploadID string  `json:"uploadId"`
	AltText  *string `json:"altText,omitempty"`
}

func mediaIDs(items []MediaItem, ids []string) []string {
	if len(items) == 0 {
		return ids
	}
	out := make([]string, 0, len(items))
	for _, m := range items {
		out = append(out, m.UploadID)
	}
	return out
}

// TwitterPayload is data.TWITTER.
type TwitterPayload struct {
	Text                string         `json:"text,omitempty"`
	UploadIDs           []string       `json:"uploadIds,omitempty"`
	MediaItems          []MediaItem    `json:"mediaItems,omitempty"`
	ReplySettings       string         `json:"replySettings,omitempty"` // EVERYONE | FOLLOWING | MENTIONED_USERS | SUBSCRIBERS | VERIFIED
	Poll                *TwitterPoll   `json:"poll,omitempty"`
	QuoteTweetID        string         `json:"quoteTweetId,omitempty"`
	ReplyToTweetID      string         `json:"replyToTweetId,omitempty"`
	SubscribersOnly     bool           `json:"subscribersOnly,omitempty"`
	Thread              []TwitterTweet `json:"thread,omitempty"`
	TweetStorm          bool           `json:"tweetStorm,omitempty"`
	TweetStormNumbering bool           `json:"tweetStormNumbering,omitempty"`
	IsAIGenerated       bool           `json:"isAiGenerated,omitempty"`
}

// TwitterPoll is a poll attached to a tweet.
type TwitterPoll struct {
	Options         []string `json:"options"`
	DurationMinutes int      `json:"durationMinutes"`
}

// TwitterTweet is one further tweet of a thread.
type TwitterTweet struct {
	Text      string   `json:"text,omitempty"`
	UploadIDs []string `json:"uploadIds,omitempty"`
}

func (p *TwitterPayload) Body() string      { return p.Text }
func (p *TwitterPayload) Uploads() []string { return mediaIDs(p.MediaItems, p.UploadIDs) }

// PinterestPayload is data.PINTEREST.
type PinterestPayload struct {
	Text          string   `json:"text,omitempty"` // the pin's title
	Description   string   `json:"description,omitempty"`
	BoardName     string   `json:"boardName"`
	UploadIDs     []string `json:"uploadIds,omitempty"`
	Thumbnail     string   `json:"thumbnail,omitempty"`
	Link          string   `json:"link,omitempty"`
	AltText       string   `json:"altText,omitempty"`
	Note          string   `json:"note,omitempty"`
	DominantColor string   `json:"dominantColor,omitempty"`
	IsAIGenerated bool     `json:"isAiGenerated,omitempty"`
}

func (p *PinterestPayload) Body() string      { return p.Text }
func (p *PinterestPayload) Uploads() []string { return p.UploadIDs }

// FacebookPayload is data.FACEBOOK.
type FacebookPayload struct {
	Type               string      `json:"type,omitempty"` // POST (default) | REEL | STORY
	Text               string      `json:"text,omitempty"`
	UploadIDs          []string    `json:"uploadIds,omitempty"`
	MediaItems         []MediaItem `json:"mediaItems,omitempty"`
	Link               string      `json:"link,omitempty"`
	Thumbnail          string      `json:"thumbnail,omitempty"`
	MediaTitle         string      `json:"mediaTitle,omitempty"`
	NativeScheduleTime string      `json:"nativeScheduleTime,omitempty"`
	TextFormatPresetID string      `json:"textFormatPresetId,omitempty"`
}

func (p *FacebookPayload) Body() string      { return p.Text }
func (p *FacebookPayload) Uploads() []string { return mediaIDs(p.MediaItems, p.UploadIDs) }

// InstagramPayload is data.INSTAGRAM.
type InstagramPayload struct {
	Type                   string                  `json:"type,omitempty"` // POST (default) | REEL | STORY
	Text                   string                  `json:"text,omitempty"`
	UploadIDs              []string                `json:"uploadIds,omitempty"`
	AltText                string                  `json:"altText,omitempty"`
	ThumbnailOffset        float64                 `json:"thumbnailOffset,omitempty"`
	Thumbnail              string                  `json:"thumbnail,omitempty"`
	ShareToFeed            *bool                   `json:"shareToFeed,omitempty"` // default true
	Collaborators          []string                `json:"collaborators,omitempty"`
	AutoFitImage           bool                    `json:"autoFitImage,omitempty"`
	AutoCropImage          bool                    `json:"autoCropImage,omitempty"`
	Tagged                 []InstagramTag          `json:"tagged,omitempty"`
	CarouselItems          []InstagramCarouselItem `json:"carouselItems,omitempty"`
	LocationID             string                  `json:"locationId,omitempty"`
	TrialParams            *InstagramTrialParams   `json:"trialParams,omitempty"`
	IsPaidPartnership      bool                    `json:"isPaidPartnership,omitempty"`
	BrandedContentSponsors []string                `json:"brandedContentSponsors,omitempty"`
	MusicSoundInfo         *MusicSoundInfo         `json:"musicSoundInfo,omitempty"`
	IsAIGenerated          bool                    `json:"isAiGenerated,omitempty"`
}

// InstagramTag tags a user at a point of the image (0..1).
type InstagramTag struct {
	Username string  `json:"username"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
}

// InstagramCarouselItem is one slide of a carousel.
type InstagramCarouselItem struct {
	UploadID string         `json:"uploadId"`
	AltText  string         `json:"altText,omitempty"`
	Tagged   []InstagramTag `json:"tagged,omitempty"`
}

// InstagramTrialParams makes a reel a trial reel.
type InstagramTrialParams struct {
	GraduationStrategy string `json:"graduationStrategy"` // MANUAL | SS_PERFORMANCE
}

// MusicSoundInfo is a licensed sound (Instagram, TikTok).
type MusicSoundInfo struct {
	MusicSoundID             string   `json:"musicSoundId"`
	MusicSoundVolume         *int     `json:"musicSoundVolume,omitempty"`
	MusicSoundStart          *float64 `json:"musicSoundStart,omitempty"` // TikTok
	MusicSoundEnd            *float64 `json:"musicSoundEnd,omitempty"`   // TikTok
	VideoOriginalSoundVolume *int     `json:"videoOriginalSoundVolume,omitempty"`
}

func (p *InstagramPayload) Body() string { return p.Text }
func (p *InstagramPayload) Uploads() []string {
	if len(p.CarouselItems) == 0 {
		return p.UploadIDs
	}
	out := make([]string, 0, len(p.CarouselItems))
	for _, c := range p.CarouselItems {
		out = append(out, c.UploadID)
	}
	return out
}

// ThreadsPayload is data.THREADS.
type ThreadsPayload struct {
	Text                              string       `json:"text,omitempty"`
	UploadIDs                         []string     `json:"uploadIds,omitempty"`
	MediaItems                        []MediaItem  `json:"mediaItems,omitempty"`
	TopicTag                          string       `json:"topicTag,omitempty"`
	ReplyControl                      string       `json:"replyControl,omitempty"`
	LinkAttachment                    string       `json:"linkAttachment,omitempty"`
	Poll                              *ThreadsPoll `json:"poll,omitempty"`
	GIF                               *ThreadsGIF  `json:"gif,omitempty"`
	AllowlistedCountryCodes           []string     `json:"allowlistedCountryCodes,omitempty"`
	CrosspostToInstagramStory         bool         `json:"crosspostToInstagramStory,omitempty"`
	CrosspostToInstagramStoryDarkMode bool         `json:"crosspostToInstagramStoryDarkMode,omitempty"`
}

// ThreadsPoll is a poll of two to four options.
type ThreadsPoll struct {
	OptionA string `json:"optionA"`
	OptionB string `json:"optionB"`
	OptionC string `json:"optionC,omitempty"`
	OptionD string `json:"optionD,omitempty"`
}

// ThreadsGIF is a GIF attachment (GIPHY only).
type ThreadsGIF struct {
	GIFID    string `json:"gifId"`
	Provider string `json:"provider,omitempty"`
}

func (p *ThreadsPayload) Body() string      { return p.Text }
func (p *ThreadsPayload) Uploads() []string { return mediaIDs(p.MediaItems, p.UploadIDs) }

// TikTokPayload is data.TIKTOK.
type TikTokPayload struct {
	Type                  string          `json:"type,omitempty"` // VIDEO (default) | IMAGE
	Text                  string          `json:"text,omitempty"`
	UploadIDs             []string        `json:"uploadIds,omitempty"`
	Thumbnail             string          `json:"thumbnail,omitempty"`
	Privacy               string          `json:"privacy,omitempty"`
	PhotoCoverIndex       int             `json:"photoCoverIndex,omitempty"`
	IsBrandContent        bool            `json:"isBrandContent,omitempty"`
	IsOrganicBrandContent bool            `json:"isOrganicBrandContent,omitempty"`
	DisableComments       bool            `json:"disableComments,omitempty"`
	DisableDuet           bool            `json:"disableDuet,omitempty"`
	DisableStitch         bool            `json:"disableStitch,omitempty"`
	ThumbnailOffset       float64         `json:"thumbnailOffset,omitempty"`
	IsAIGenerated         bool            `json:"isAiGenerated,omitempty"`
	AutoAddMusic          bool            `json:"autoAddMusic,omitempty"`
	AutoScale             bool            `json:"autoScale,omitempty"`
	UploadToDraft         bool            `json:"uploadToDraft,omitempty"`
	MusicSoundInfo        *MusicSoundInfo `json:"musicSoundInfo,omitempty"`
}

func (p *TikTokPayload) Body() string      { return p.Text }
func (p *TikTokPayload) Uploads() []string { return p.UploadIDs }

// LinkedInPayload is data.LINKEDIN.
type LinkedInPayload struct {
	Text           string   `json:"text"`
	UploadIDs      []string `json:"uploadIds,omitempty"`
	Link           string   `json:"link,omitempty"`
	Thumbnail      string   `json:"thumbnail,omitempty"`
	MediaTitle     string   `json:"mediaTitle,omitempty"`
	Privacy        string   `json:"privacy,omitempty"` // CONNECTIONS | PUBLIC | LOGGED_IN | CONTAINER
	HideFromFeed   bool     `json:"hideFromFeed,omitempty"`
	DisableReshare bool     `json:"disableReshare,omitempty"`
}

func (p *LinkedInPayload) Body() string      { return p.Text }
func (p *LinkedInPayload) Uploads() []string { return p.UploadIDs }

// YouTubePayload is data.YOUTUBE.
type YouTubePayload struct {
	Type                    string   `json:"type,omitempty"` // SHORT (default) | VIDEO
	UploadIDs               []string `json:"uploadIds,omitempty"`
	Text                    string   `json:"text,omitempty"` // the title
	Description             string   `json:"description,omitempty"`
	Thumbnail               string   `json:"thumbnail,omitempty"`
	Privacy                 string   `json:"privacy,omitempty"` // PRIVATE | PUBLIC | UNLISTED
	DefaultLanguage         string   `json:"defaultLanguage,omitempty"`
	DefaultAudioLanguage    string   `json:"defaultAudioLanguage,omitempty"`
	MadeForKids             bool     `json:"madeForKids,omitempty"`
	ContainsSyntheticMedia  bool     `json:"containsSyntheticMedia,omitempty"`
	HasPaidProductPlacement bool     `json:"hasPaidProductPlacement,omitempty"`
}

func (p *YouTubePayload) Body() string      { return p.Text }
func (p *YouTubePayload) Uploads() []string { return p.UploadIDs }

// RedditPayload is data.REDDIT.
type RedditPayload struct {
	SR          string   `json:"sr"`
	Text        string   `json:"text"` // the title
	Description string   `json:"description,omitempty"`
	UploadIDs   []string `json:"uploadIds,omitempty"`
	Link        string   `json:"link,omitempty"`
	NSFW        bool     `json:"nsfw,omitempty"`
	FlairID     string   `json:"flairId,omitempty"`
}

func (p *RedditPayload) Body() string      { return p.Text }
func (p *RedditPayload) Uploads() []string { return p.UploadIDs }

// ChatPayload is data.DISCORD and data.SLACK.
type ChatPayload struct {
	ChannelID string   `json:"channelId"`
	Text      string   `json:"text,omitempty"`
	UploadIDs []string `json:"uploadIds,omitempty"`
	Username  string   `json:"username,omitempty"`
	AvatarURL string   `json:"avatarUrl,omitempty"`
}

func (p *ChatPayload) Body() string      { return p.Text }
func (p *ChatPayload) Uploads() []string { return p.UploadIDs }

// MastodonPayload is data.MASTODON.
type MastodonPayload struct {
	Text      string   `json:"text,omitempty"`
	UploadIDs []string `json:"uploadIds,omitempty"`
	Thumbnail string   `json:"thumbnail,omitempty"`
	Privacy   string   `json:"privacy,omitempty"` // PUBLIC | UNLISTED | PRIVATE | DIRECT
	Spoiler   string   `json:"spoiler,omitempty"`
}

func (p *MastodonPayload) Body() string      { return p.Text }
func (p *MastodonPayload) Uploads() []string { return p.UploadIDs }

// BlueskyPayload is data.BLUESKY.
type BlueskyPayload struct {
	Text                string   `json:"text,omitempty"`
	UploadIDs           []string `json:"uploadIds,omitempty"`
	Tags                []string `json:"tags,omitempty"`
	Labels              []string `json:"labels,omitempty"`
	QuoteURI            string   `json:"quoteUri,omitempty"`
	ExternalURL         string   `json:"externalUrl,omitempty"`
	ExternalTitle       string   `json:"externalTitle,omitempty"`
	ExternalDescription string   `json:"externalDescription,omitempty"`
	Thumbnail           string   `json:"thumbnail,omitempty"`
	VideoAlt            string   `json:"videoAlt,omitempty"`
}

func (p *BlueskyPayload) Body() string      { return p.Text }
func (p *BlueskyPayload) Uploads() []string { return p.UploadIDs }

// GoogleBusinessPayload is data.GOOGLE_BUSINESS.
type GoogleBusinessPayload struct {
	Text                 string   `json:"text,omitempty"`
	UploadIDs            []string `json:"uploadIds,omitempty"`
	TopicType            string   `json:"topicType,omitempty"` // STANDARD (default) | EVENT | OFFER | ALERT
	LanguageCode         string   `json:"languageCode,omitempty"`
	CallToActionType     string   `json:"callToActionType,omitempty"`
	CallToActionURL      string   `json:"callToActionUrl,omitempty"`
	EventTitle           string   `json:"eventTitle,omitempty"`
	EventStartDate       string   `json:"eventStartDate,omitempty"`
	EventEndDate         string   `json:"eventEndDate,omitempty"`
	OfferCouponCode      string   `json:"offerCouponCode,omitempty"`
	OfferRedeemOnlineURL string   `json:"offerRedeemOnlineUrl,omitempty"`
	OfferTermsConditions string   `json:"offerTermsConditions,omitempty"`
	AlertType            string   `json:"alertType,omitempty"` // COVID_19
}

func (p *GoogleBusinessPayload) Body() string      { return p.Text }
func (p *GoogleBusinessPayload) Uploads() []string { return p.UploadIDs }

// SnapchatPayload is data.SNAPCHAT.
type SnapchatPayload struct {
	Type              string   `json:"type,omitempty"` // STORY (default) | SPOTLIGHT | SAVED_STORY
	UploadIDs         []string `json:"uploadIds,omitempty"`
	Text              string   `json:"text,omitempty"`
	Title             string   `json:"title,omitempty"`
	Description       string   `json:"description,omitempty"`
	Locale            string   `json:"locale,omitempty"`
	SkipSaveToProfile bool     `json:"skipSaveToProfile,omitempty"`
	StoryDuration     string   `json:"storyDuration,omitempty"` // ONE_DAY | TWO_DAYS | THREE_DAYS | ONE_WEEK
}

func (p *SnapchatPayload) Body() string      { return p.Text }
func (p *SnapchatPayload) Uploads() []string { return p.UploadIDs }
