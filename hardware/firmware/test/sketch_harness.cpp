/*
 * sketch_harness.cpp - runs the whole sketch (guandan_clock.ino) on the host against the
 * fake <Arduino.h> in fake_arduino/, for tests/hardware/test_firmware.py:
 *
 *   g++ -std=c++11 -Ifake_arduino -x c++ ../guandan_clock/guandan_clock.ino sketch_harness.cpp
 *
 * It simulates the pins (open-drain lines with pull-ups, buttons pulling to GND), four
 * TM1637 chips that decode what the driver clocks out and acknowledge every byte, a
 * serial port and millis(). setup() runs at time 0; then commands come one per line:
 *
 *   S <hex>            bytes arrive on the serial port
 *   X <pin> <0|1>      something outside pulls the pin low (1) or lets go (0): a button
 *   W <n>              the serial transmit buffer has room for n bytes from now on
 *   R <until> <step>   call loop() at every step ms up to time <until> (ms)
 *   Q                  report, then forget what was reported:
 *                        tx <hex of what the sketch wrote>
 *                        tm <seat 0-3> <transaction>|<transaction>...   each transaction
 *                           is the bytes between a start and a stop, in hex
 *                        pins <level of D10 D11 D12 D13>
 *                        tone <pin>:<Hz>@<ms> / off@<ms> ...
 *                        wait <longest busy-wait in one loop() call, in us>
 *                        nak <TM1637 bytes clocked without a start, or bad bus shapes>
 */
#include <Arduino.h>

#include <stdio.h>
#include <stdlib.h>

#include <string>
#include <vector>

void setup();
void loop();

/* ---- time ---------------------------------------------------------------------------- */

static uint32_t g_now;
static unsigned long g_waitedThisPass;
static unsigned long g_longestWait;

uint32_t millis() { return g_now; }
void delayMicroseconds(unsigned int us) { g_waitedThisPass += us; }

/* ---- pins ---------------------------------------------------------------------------- */

static const int PINS = 20;
static bool g_ddr[PINS];       /* output? */
static bool g_port[PINS];      /* output level, or pull-up enabled for an input */
static bool g_pulledLow[PINS]; /* something outside drives the line low */

/* Every line idles high: TM1637 modules have pull-ups, buttons use the internal ones. */
static int level(int pin) {
  if (g_ddr[pin]) return g_port[pin] && !g_pulledLow[pin];
  return !g_pulledLow[pin];
}

struct Tm1637 {
  Tm1637(int c, int d) : clk(c), dio(d) {}
  int clk, dio;
  int lastClk = 1, lastDio = 1;
  bool inFrame = false;
  int bits = 0; /* 0..7 data bits seen, 8: waiting for the ACK clock, 9: in the ACK clock */
  uint8_t value = 0;
  std::string frame, done;
  int badShapes = 0;
};

static Tm1637 g_tm[4] = {{2, 3}, {4, 5}, {6, 7}, {8, 9}};

static void busChanged() {
  for (Tm1637 &t : g_tm) {
    int c = level(t.clk), d = level(t.dio);
    if (c && t.lastClk && d != t.lastDio) { /* DIO moved while CLK high: start or stop */
      if (!d) {
        t.inFrame = true;
        t.bits = 0;
        t.value = 0;
        t.frame.clear();
      } else {
        /* the stop's own CLK rise samples one stray bit */
        if (!t.inFrame || t.bits > 1) t.badShapes++;
        if (!t.done.empty()) t.done += "|";
        t.done += t.frame;
        t.inFrame = false;
      }
    } else if (c && !t.lastClk) { /* rising CLK: sample a data bit */
      if (!t.inFrame) {
        t.badShapes++;
      } else if (t.bits < 8) {
        t.value = (uint8_t)(t.value | (d << t.bits));
        t.bits++;
      } else if (t.bits == 8) {
        t.bits = 9; /* the ACK clock */
      }
    } else if (!c && t.lastClk && t.inFrame) { /* falling CLK */
      if (t.bits == 8) {
        char hex[3];
        snprintf(hex, sizeof hex, "%02X", t.value);
        t.frame += hex;
        g_pulledLow[t.dio] = true; /* the chip acknowledges */
      } else if (t.bits == 9) {
        g_pulledLow[t.dio] = false;
        t.bits = 0;
        t.value = 0;
      }
    }
    t.lastClk = c;
    t.lastDio = level(t.dio);
  }
}

void pinMode(uint8_t pin, uint8_t mode) {
  if (pin >= PINS) abort();
  g_ddr[pin] = mode == OUTPUT;
  if (mode == INPUT) g_port[pin] = false;
  if (mode == INPUT_PULLUP) g_port[pin] = true;
  busChanged();
}

void digitalWrite(uint8_t pin, uint8_t value) {
  if (pin >= PINS) abort();
  g_port[pin] = value != LOW;
  busChanged();
}

int digitalRead(uint8_t pin) {
  if (pin >= PINS) abort();
  return level(pin);
}

/* ---- buzzer and serial --------------------------------------------------------------- */

static std::string g_tones;

static void note(const char *text) {
  if (!g_tones.empty()) g_tones += " ";
  g_tones += text;
}

void tone(uint8_t pin, unsigned int frequency, unsigned long duration) {
  char text[64];
  snprintf(text, sizeof text, "%u:%u@%lu%s", pin, frequency, (unsigned long)g_now, duration ? "+timed" : "");
  note(text);
}

void noTone(uint8_t pin) {
  char text[64];
  snprintf(text, sizeof text, "off%u@%lu", pin, (unsigned long)g_now);
  note(text);
}

FakeSerial Serial;
static std::vector<uint8_t> g_rx;
static size_t g_rxAt;
static std::string g_tx;
static int g_txRoom = 63;

void FakeSerial::begin(unsigned long) {}
int FakeSerial::available() { return (int)(g_rx.size() - g_rxAt); }
int FakeSerial::read() { return g_rxAt < g_rx.size() ? g_rx[g_rxAt++] : -1; }
int FakeSerial::availableForWrite() { return g_txRoom; }
size_t FakeSerial::write(const uint8_t *data, size_t len) {
  if ((int)len > g_txRoom) abort(); /* the sketch would have blocked */
  g_tx.append((const char *)data, len);
  return len;
}

/* ---- driver -------------------------------------------------------------------------- */

static void pass() {
  g_waitedThisPass = 0;
  loop();
  if (g_waitedThisPass > g_longestWait) g_longestWait = g_waitedThisPass;
}

int main() {
  static char line[8192];
  g_now = 0;
  busChanged();
  g_waitedThisPass = 0;
  setup();
  while (fgets(line, sizeof line, stdin)) {
    unsigned long a, b;
    if (line[0] == 'S' && line[1] == ' ') {
      for (const char *p = line + 2; p[0] && p[1] && p[0] != '\n'; p += 2) {
        unsigned int v;
        if (sscanf(p, "%2x", &v) != 1) break;
        g_rx.push_back((uint8_t)v);
      }
    } else if (sscanf(line, "X %lu %lu", &a, &b) == 2) {
      g_pulledLow[a] = b != 0;
      busChanged();
    } else if (sscanf(line, "W %lu", &a) == 1) {
      g_txRoom = (int)a;
    } else if (sscanf(line, "R %lu %lu", &a, &b) == 2) {
      for (; g_now < a; g_now += (uint32_t)b) pass();
      g_now = (uint32_t)a;
      pass();
    } else if (line[0] == 'Q') {
      printf("tx ");
      for (unsigned char c : g_tx) printf("%02X", c);
      printf("\n");
      g_tx.clear();
      int bad = 0;
      for (int s = 0; s < 4; s++) {
        printf("tm %d %s\n", s, g_tm[s].done.c_str());
        g_tm[s].done.clear();
        bad += g_tm[s].badShapes;
      }
      printf("pins %d %d %d %d\n", level(10), level(11), level(12), level(13));
      printf("tone %s\n", g_tones.c_str());
      g_tones.clear();
      printf("wait %lu\n", g_longestWait);
      printf("nak %d\n", bad);
      printf("end\n");
      fflush(stdout);
    } else {
      printf("? %s", line);
      return 2;
    }
  }
  return 0;
}
