/*
 * guandan_clock.ino - firmware of the Guandan table clock box.
 *
 * Speaks the table clock wire protocol, version 1 (docs/clock-protocol.md) with the table
 * node over USB serial at 115200 8N1. The protocol rules themselves (framing, checksum,
 * host command decisions, the press ring buffer, debouncing) live in protocol.h, which a
 * native test harness also compiles; this file is the hardware around them.
 *
 * Board: Arduino Nano (ATmega328P, 16 MHz). Plain Arduino core, no libraries.
 *
 * Pin map (D0/D1 are the serial port; every other digital pin is in use):
 *
 *   pin  role                          pin  role
 *   D2   display E  TM1637 CLK         D10  turn LED E  (to GND via 330 R)
 *   D3   display E  TM1637 DIO         D11  turn LED S
 *   D4   display S  TM1637 CLK         D12  turn LED W
 *   D5   display S  TM1637 DIO         D13  turn LED N  (the Nano's on-board LED too)
 *   D6   display W  TM1637 CLK         A0   button E    (to GND, internal pull-up)
 *   D7   display W  TM1637 DIO         A1   button S
 *   D8   display N  TM1637 CLK         A2   button W
 *   D9   display N  TM1637 DIO         A3   button N
 *                                      A4   referee call button R
 *                                      A5   piezo buzzer (to GND, square wave via tone())
 *
 * Each TM1637 module has its own CLK/DIO pair (the chip has no address). The lines are
 * driven open-drain: low = output low, high = released input, pulled up by the module's
 * resistors. Buttons are not on D13, whose LED would fight the internal pull-up.
 *
 * Behaviour:
 *   - on reset: READY,1,<version>,ESWN; the displays show "----", lamps off, buzzer quiet
 *   - HB,<millis> every 1000 ms
 *   - a debounced press (falling edge, low for 20 ms) sends BTN,<n>,<seat>,<ms> with the
 *     device's own 16-bit wrapping n and the time of the edge, repeated every 200 ms
 *     until the host sends ACK,<n>; at most 16 presses wait, the oldest is dropped first
 *   - host DSP / LED / BEEP are answered ACK,<n> or NAK,<n>,seat|text|value; host ACK
 *     clears a pending press; other checked sentences are dropped or refused as unknown
 *     (see gc_parse_command in protocol.h); malformed input is counted in g_framer.dropped
 *   - loop() never waits: no delay(), serial output only when the transmit buffer has
 *     room (else it is tried again on the next pass), beeps end by millis(). The only
 *     busy-wait is the TM1637 bit timing, 5 us per half clock, under 2 ms per display
 *     refresh, one display per pass and only after a change.
 */
#include <Arduino.h>

#include "protocol.h"

/* ---- pins ------------------------------------------------------------------------------ */

static const uint8_t DISPLAY_CLK[GC_SEAT_COUNT] = {2, 4, 6, 8};  /* E S W N */
static const uint8_t DISPLAY_DIO[GC_SEAT_COUNT] = {3, 5, 7, 9};
static const uint8_t LAMP_PIN[GC_SEAT_COUNT] = {10, 11, 12, 13};
static const uint8_t BUTTON_PIN[GC_BUTTON_COUNT] = {A0, A1, A2, A3, A4};  /* E S W N R */
static const char BUTTON_NAME[GC_BUTTON_COUNT] = {'E', 'S', 'W', 'N', 'R'};
static const uint8_t BUZZER_PIN = A5;

static const uint32_t SERIAL_BAUD = 115200UL;
static const unsigned int BEEP_HZ = 2700;   /* near a small piezo disc's resonance */
static const uint8_t BRIGHTNESS = 5;        /* TM1637 display control, 0..7 */
static const uint8_t TM_HALF_BIT_US = 5;

/* ---- state ----------------------------------------------------------------------------- */

static GcFramer g_framer;        /* g_framer.dropped counts every dropped sentence */
static GcPressRing g_presses;    /* presses sent but not yet acknowledged */
static GcDebounce g_buttons[GC_BUTTON_COUNT];

static uint8_t g_segs[GC_SEAT_COUNT][GC_DIGITS];  /* what each display should show */
static uint8_t g_dirty;                           /* seat mask: displays to refresh */
static uint8_t g_nextDisplay;                     /* round robin over dirty displays */

static uint8_t g_lampMode[GC_SEAT_COUNT];         /* GC_LAMP_* */
static uint8_t g_lampLit;                         /* seat mask: lamps now lit */

static bool g_beeping;
static uint32_t g_beepStart;
static uint16_t g_beepMs;

static uint32_t g_lastHeartbeat;

/* Replies (ACK / NAK) waiting for room in the serial transmit buffer. */
#define REPLY_QUEUE 8
static struct {
  uint16_t n;
  uint8_t reason;  /* GC_REPLY_ACK or GC_NAK_* */
} g_replies[REPLY_QUEUE];
static uint8_t g_replyHead;
static uint8_t g_replyCount;
static uint16_t g_repliesLost;  /* queue full: the host re-sends the command after 250 ms */

/* ---- TM1637 driver (bit-banged, open-drain) ------------------------------------------ */

static void tmLow(uint8_t pin) { pinMode(pin, OUTPUT); }   /* the port bit stays 0 */
static void tmRelease(uint8_t pin) { pinMode(pin, INPUT); }
static void tmWait() { delayMicroseconds(TM_HALF_BIT_US); }

/* Start condition: DIO falls while CLK is high. */
static void tmStart(uint8_t clk, uint8_t dio) {
  (void)clk;
  tmLow(dio);
  tmWait();
}

/* Stop condition: DIO rises while CLK is high. */
static void tmStop(uint8_t clk, uint8_t dio) {
  tmLow(dio);
  tmWait();
  tmRelease(clk);
  tmWait();
  tmRelease(dio);
  tmWait();
}

/* Eight bits LSB first, then a ninth clock for the chip's ACK (it pulls DIO low).
 * Returns whether the chip acknowledged. */
static bool tmWriteByte(uint8_t clk, uint8_t dio, uint8_t b) {
  for (uint8_t i = 0; i < 8; i++) {
    tmLow(clk);
    tmWait();
    if (b & 0x01) {
      tmRelease(dio);
    } else {
      tmLow(dio);
    }
    tmWait();
    tmRelease(clk);
    tmWait();
    b >>= 1;
  }
  tmLow(clk);
  tmRelease(dio);
  tmWait();
  tmRelease(clk);
  tmWait();
  bool ack = digitalRead(dio) == LOW;
  tmLow(clk);
  tmWait();
  return ack;
}

/* Writes four digit patterns to a seat's display and switches it on. */
static void tmShow(uint8_t seat, const uint8_t segs[GC_DIGITS]) {
  uint8_t clk = DISPLAY_CLK[seat];
  uint8_t dio = DISPLAY_DIO[seat];
  tmStart(clk, dio);
  tmWriteByte(clk, dio, 0x40);  /* data command: write, auto-increment address */
  tmStop(clk, dio);
  tmStart(clk, dio);
  tmWriteByte(clk, dio, 0xC0);  /* address command: digit 0 */
  for (uint8_t i = 0; i < GC_DIGITS; i++) tmWriteByte(clk, dio, segs[i]);
  tmStop(clk, dio);
  tmStart(clk, dio);
  tmWriteByte(clk, dio, 0x88 | BRIGHTNESS);  /* display control: on, brightness */
  tmStop(clk, dio);
}

static void tmInit(uint8_t seat) {
  digitalWrite(DISPLAY_CLK[seat], LOW);  /* no pull-up; low once switched to output */
  digitalWrite(DISPLAY_DIO[seat], LOW);
  tmRelease(DISPLAY_CLK[seat]);
  tmRelease(DISPLAY_DIO[seat]);
}

/* ---- serial output --------------------------------------------------------------------- */

/* Writes a finished sentence if the transmit buffer has room for all of it; never waits. */
static bool trySend(const GcOut &out, uint8_t len) {
  if (len == 0) return true;  /* cannot happen: every sentence built here fits */
  if (Serial.availableForWrite() < (int)len) return false;
  Serial.write(reinterpret_cast<const uint8_t *>(out.buf), len);
  return true;
}

static void queueReply(uint16_t n, uint8_t reason) {
  if (g_replyCount == REPLY_QUEUE) {
    g_repliesLost++;
    return;
  }
  uint8_t i = (uint8_t)((g_replyHead + g_replyCount) % REPLY_QUEUE);
  g_replies[i].n = n;
  g_replies[i].reason = reason;
  g_replyCount++;
}

static void flushReplies() {
  GcOut out;
  while (g_replyCount > 0) {
    uint8_t len = gc_make_reply(&out, g_replies[g_replyHead].n, g_replies[g_replyHead].reason);
    if (!trySend(out, len)) return;
    g_replyHead = (uint8_t)((g_replyHead + 1) % REPLY_QUEUE);
    g_replyCount--;
  }
}

static void sendPresses(uint32_t now) {
  GcOut out;
  GcPress *p;
  while ((p = gc_ring_due(&g_presses, now)) != NULL) {
    if (!trySend(out, gc_make_button(&out, p->n, p->seat, p->ms))) return;
    gc_ring_sent(p, now);
  }
}

static void sendHeartbeat(uint32_t now) {
  if ((uint32_t)(now - g_lastHeartbeat) < GC_HEARTBEAT_MS) return;
  GcOut out;
  if (!trySend(out, gc_make_heartbeat(&out, now))) return;
  g_lastHeartbeat += GC_HEARTBEAT_MS;
  if ((uint32_t)(now - g_lastHeartbeat) >= GC_HEARTBEAT_MS) g_lastHeartbeat = now;  /* fell behind */
}

/* ---- host commands --------------------------------------------------------------------- */

static void carryOut(const GcCommand &cmd, uint32_t now) {
  switch (cmd.action) {
    case GC_DISPLAY:
      for (uint8_t s = 0; s < GC_SEAT_COUNT; s++) {
        if (!(cmd.seats & (1 << s))) continue;
        memcpy(g_segs[s], cmd.segs, GC_DIGITS);
        g_dirty |= (uint8_t)(1 << s);
      }
      queueReply(cmd.n, GC_REPLY_ACK);
      break;
    case GC_LAMP:
      for (uint8_t s = 0; s < GC_SEAT_COUNT; s++) {
        if (cmd.seats & (1 << s)) g_lampMode[s] = cmd.lamp;
      }
      queueReply(cmd.n, GC_REPLY_ACK);
      break;
    case GC_BEEP:
      tone(BUZZER_PIN, BEEP_HZ);  /* no duration: stopped by serviceBeep() */
      g_beeping = true;
      g_beepStart = now;
      g_beepMs = cmd.beep_ms;
      queueReply(cmd.n, GC_REPLY_ACK);
      break;
    case GC_HOST_ACK:
      gc_ring_ack(&g_presses, cmd.n);  /* a late or repeated ACK finds nothing: fine */
      break;
    case GC_REFUSE:
      queueReply(cmd.n, cmd.reason);
      break;
    default:
      g_framer.dropped++;  /* checked but malformed */
      break;
  }
}

static void readHost(uint32_t now) {
  while (Serial.available() > 0) {
    const char *body;
    uint8_t len;
    if (!gc_framer_feed(&g_framer, (uint8_t)Serial.read(), &body, &len)) continue;
    GcCommand cmd;
    gc_parse_command(body, len, &cmd);
    carryOut(cmd, now);
  }
}

/* ---- buttons, lamps, buzzer, displays ------------------------------------------------- */

static void scanButtons(uint32_t now) {
  for (uint8_t b = 0; b < GC_BUTTON_COUNT; b++) {
    uint32_t pressedAt;
    if (gc_debounce(&g_buttons[b], digitalRead(BUTTON_PIN[b]) == LOW, now, &pressedAt)) {
      gc_ring_push(&g_presses, BUTTON_NAME[b], pressedAt);
    }
  }
}

static void serviceLamps(uint32_t now) {
  for (uint8_t s = 0; s < GC_SEAT_COUNT; s++) {
    uint8_t bit = (uint8_t)(1 << s);
    bool lit = gc_lamp_lit(g_lampMode[s], now);
    if (lit == ((g_lampLit & bit) != 0)) continue;
    digitalWrite(LAMP_PIN[s], lit ? HIGH : LOW);
    g_lampLit = (uint8_t)(lit ? (g_lampLit | bit) : (g_lampLit & ~bit));
  }
}

static void serviceBeep(uint32_t now) {
  if (g_beeping && (uint32_t)(now - g_beepStart) >= g_beepMs) {
    noTone(BUZZER_PIN);
    digitalWrite(BUZZER_PIN, LOW);
    g_beeping = false;
  }
}

/* Refreshes at most one changed display per pass, so that serial input keeps flowing. */
static void serviceDisplays() {
  if (g_dirty == 0) return;
  for (uint8_t k = 0; k < GC_SEAT_COUNT; k++) {
    uint8_t s = (uint8_t)((g_nextDisplay + k) % GC_SEAT_COUNT);
    uint8_t bit = (uint8_t)(1 << s);
    if (!(g_dirty & bit)) continue;
    g_dirty = (uint8_t)(g_dirty & ~bit);
    tmShow(s, g_segs[s]);
    g_nextDisplay = (uint8_t)((s + 1) % GC_SEAT_COUNT);
    return;
  }
}

/* ---- setup and loop -------------------------------------------------------------------- */

void setup() {
  Serial.begin(SERIAL_BAUD);
  gc_framer_init(&g_framer);
  gc_ring_init(&g_presses);

  uint32_t now = millis();
  for (uint8_t b = 0; b < GC_BUTTON_COUNT; b++) {
    pinMode(BUTTON_PIN[b], INPUT_PULLUP);
  }
  for (uint8_t s = 0; s < GC_SEAT_COUNT; s++) {
    pinMode(LAMP_PIN[s], OUTPUT);
    digitalWrite(LAMP_PIN[s], LOW);
    g_lampMode[s] = GC_LAMP_OFF;
    tmInit(s);
    memset(g_segs[s], gc_segments('-'), GC_DIGITS);
  }
  g_dirty = GC_SEAT_ALL;
  pinMode(BUZZER_PIN, OUTPUT);
  digitalWrite(BUZZER_PIN, LOW);
  delayMicroseconds(50);  /* let the pull-ups charge the button lines before the first read */
  for (uint8_t b = 0; b < GC_BUTTON_COUNT; b++) {
    gc_debounce_init(&g_buttons[b], digitalRead(BUTTON_PIN[b]) == LOW, now);
  }

  GcOut out;
  trySend(out, gc_make_ready(&out));  /* the transmit buffer is empty: it fits */
  g_lastHeartbeat = now;
}

void loop() {
  uint32_t now = millis();
  readHost(now);
  flushReplies();
  scanButtons(now);
  sendPresses(now);
  sendHeartbeat(now);
  serviceLamps(now);
  serviceBeep(now);
  serviceDisplays();
}
