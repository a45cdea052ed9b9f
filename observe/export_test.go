package observe

// JobEvent is jobEvent, for tests that feed River events without a River client.
var JobEvent = (*Metrics).jobEvent
