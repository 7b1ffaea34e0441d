/*
 * presses.h - the clock box's buttons and lamps as pure state machines: the ring buffer of
 * button presses the host has not yet acknowledged (each repeated until it is), button
 * debouncing, and whether a blinking lamp is lit. No hardware access: the sketch reads the
 * pins and the clock and hands them in, and the native test harness does the same.
 *
 * Included at the end of protocol.h, whose constants and types it uses; not on its own.
 */
#ifndef GUANDAN_CLOCK_PRESSES_H
#define GUANDAN_CLOCK_PRESSES_H

/* ---- unacknowledged button presses --------------------------------------------------- */

typedef struct {
  uint32_t ms;        /* device uptime at the press; repeats carry the same value */
  uint32_t last_sent; /* when it was last sent (valid once sent) */
  uint16_t n;         /* its sentence number */
  char seat;          /* E S W N R */
  bool sent;          /* sent at least once */
} GcPress;

/* A ring of up to GC_PENDING_MAX presses, oldest first. */
typedef struct {
  GcPress item[GC_PENDING_MAX];
  uint8_t head;      /* index of the oldest */
  uint8_t count;
  uint16_t next_n;   /* the next press's number; wraps at 65536 */
  uint32_t lost;     /* presses dropped unacknowledged because the ring was full */
} GcPressRing;

static inline void gc_ring_init(GcPressRing *r) {
  memset(r, 0, sizeof *r);
}

/* The i-th oldest press, 0 <= i < count. */
static inline GcPress *gc_ring_at(GcPressRing *r, uint8_t i) {
  return &r->item[(uint8_t)(r->head + i) % GC_PENDING_MAX];
}

/* Records a press (dropping the oldest if the ring is full); returns its number. */
static inline uint16_t gc_ring_push(GcPressRing *r, char seat, uint32_t ms) {
  if (r->count == GC_PENDING_MAX) {
    r->head = (uint8_t)((r->head + 1) % GC_PENDING_MAX);
    r->count--;
    r->lost++;
  }
  GcPress *p = gc_ring_at(r, r->count);
  r->count++;
  p->n = r->next_n++;
  p->seat = seat;
  p->ms = ms;
  p->last_sent = 0;
  p->sent = false;
  return p->n;
}

/* Removes the press numbered n; false if none is pending (a late or repeated ACK). */
static inline bool gc_ring_ack(GcPressRing *r, uint16_t n) {
  for (uint8_t i = 0; i < r->count; i++) {
    if (gc_ring_at(r, i)->n != n) continue;
    for (uint8_t j = i; j + 1 < r->count; j++) *gc_ring_at(r, j) = *gc_ring_at(r, (uint8_t)(j + 1));
    r->count--;
    return true;
  }
  return false;
}

/* The oldest press due to be sent (never sent, or last sent GC_RESEND_MS or more ago),
 * or NULL. The caller sends it and calls gc_ring_sent. */
static inline GcPress *gc_ring_due(GcPressRing *r, uint32_t now) {
  for (uint8_t i = 0; i < r->count; i++) {
    GcPress *p = gc_ring_at(r, i);
    if (!p->sent || (uint32_t)(now - p->last_sent) >= GC_RESEND_MS) return p;
  }
  return NULL;
}

static inline void gc_ring_sent(GcPress *p, uint32_t now) {
  p->sent = true;
  p->last_sent = now;
}

/* ---- buttons and lamps --------------------------------------------------------------- */

/* One button to GND with a pull-up: pressed reads low. */
typedef struct {
  uint32_t changed_at; /* when the raw level last changed */
  bool raw_low;        /* the last level read */
  bool stable_low;     /* the debounced level */
} GcDebounce;

static inline void gc_debounce_init(GcDebounce *d, bool raw_low, uint32_t now) {
  d->changed_at = now;
  d->raw_low = raw_low;
  d->stable_low = raw_low; /* a button held through a reset is not a press */
}

/* Feeds one reading; true on a press, a falling edge that then stayed low for
 * GC_DEBOUNCE_MS. *press_ms gets the time of that falling edge. */
static inline bool gc_debounce(GcDebounce *d, bool raw_low, uint32_t now, uint32_t *press_ms) {
  if (raw_low != d->raw_low) {
    d->raw_low = raw_low;
    d->changed_at = now;
    return false;
  }
  if (raw_low == d->stable_low || (uint32_t)(now - d->changed_at) < GC_DEBOUNCE_MS) return false;
  d->stable_low = raw_low;
  if (!raw_low) return false; /* a release */
  *press_ms = d->changed_at;
  return true;
}

/* Whether a lamp in mode lamp is lit at time now (BLINK: 2 Hz, starting lit). */
static inline bool gc_lamp_lit(uint8_t lamp, uint32_t now) {
  if (lamp == GC_LAMP_ON) return true;
  if (lamp == GC_LAMP_BLINK) return (now % (2 * GC_BLINK_HALF_MS)) < GC_BLINK_HALF_MS;
  return false;
}

#endif /* GUANDAN_CLOCK_PRESSES_H */
