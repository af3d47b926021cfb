// SPDX-License-Identifier: EPL-2.0
// tsapp: one "host" of the LTTng end-to-end tests. It exchanges real TCP
// messages (over 127.0.0.1, or the address given) and traces each send (tsapp:msg_send, just before
// the bytes are written) and each receive (tsapp:msg_recv, just after they
// are read) with the message's id, so that every traced receive is later,
// in real time, than its traced send.
//
//   tsapp serve [ADDRESS:]PORT CLIENTS HOST_ID MAX_SECONDS
//     accepts CLIENTS connections; answers every message with one of its own;
//     ends when every client has closed (or after MAX_SECONDS).
//   tsapp connect [ADDRESS:]PORT HOST_ID RATE DURATION_MS
//     sends RATE messages a second for DURATION_MS, each answered, then closes.
// ADDRESS is an IPv4 address (127.0.0.1 when left out; 0.0.0.0 serves on
// every address, as across the tests' veth links).
//
// With TSAPP_TICK_MS=N in its environment, a thread per CPU, pinned there,
// records tsapp:tick every N ms while the program runs.
//
// A message is its 8-byte id, big-endian: HOST_ID in the top 24 bits, a
// sequence number below, so ids never repeat across hosts.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tsapp_tp.h"

static uint64_t next_id(uint64_t host, uint64_t* sequence) { return (host << 40) | (*sequence)++; }

static int write_all(int fd, const unsigned char* bytes, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    bytes += n;
    size -= (size_t)n;
  }
  return 0;
}

// 1: a whole message read; 0: the peer closed; -1: an error.
static int read_message(int fd, uint64_t* id) {
  unsigned char bytes[8];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = read(fd, bytes + got, sizeof bytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) return got == 0 ? 0 : -1;
    got += (size_t)n;
  }
  uint64_t value = 0;
  for (size_t i = 0; i < sizeof bytes; ++i) value = (value << 8) | bytes[i];
  *id = value;
  return 1;
}

static int send_message(int fd, uint64_t id, const char* peer) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = (unsigned char)(id >> (56 - 8 * i));
  lttng_ust_tracepoint(tsapp, msg_send, id, peer);
  return write_all(fd, bytes, sizeof bytes);
}

static void no_delay(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// [ADDRESS:]PORT, ADDRESS 127.0.0.1 when left out; 0 when it is not one.
static int parse_endpoint(const char* text, struct sockaddr_in* address) {
  memset(address, 0, sizeof *address);
  address->sin_family = AF_INET;
  address->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const char* colon = strrchr(text, ':');
  if (colon != NULL) {
    char host[INET_ADDRSTRLEN];
    const size_t length = (size_t)(colon - text);
    if (length >= sizeof host) return 0;
    memcpy(host, text, length);
    host[length] = '\0';
    if (inet_pton(AF_INET, host, &address->sin_addr) != 1) return 0;
    text = colon + 1;
  }
  const int port = atoi(text);
  if (port <= 0 || port > 65535) return 0;
  address->sin_port = htons((uint16_t)port);
  return 1;
}

// "ADDRESS:PORT", as the traces' peer field shows it.
static void endpoint_text(const struct sockaddr_in* address, char* text, size_t size) {
  char host[INET_ADDRSTRLEN] = "?";
  inet_ntop(AF_INET, &address->sin_addr, host, sizeof host);
  snprintf(text, size, "%s:%d", host, ntohs(address->sin_port));
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

#define MAX_CLIENTS 16

static int serve(struct sockaddr_in address, int clients, uint64_t host, int max_seconds) {
  if (clients < 1 || clients > MAX_CLIENTS) {
    fprintf(stderr, "tsapp: between 1 and %d clients\n", MAX_CLIENTS);
    return 2;
  }
  alarm((unsigned)max_seconds);
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  const int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (listener < 0 || bind(listener, (struct sockaddr*)&address, sizeof address) != 0 || listen(listener, clients) != 0) {
    char text[32];
    endpoint_text(&address, text, sizeof text);
    fprintf(stderr, "tsapp: cannot listen on %s: %s\n", text, strerror(errno));
    return 1;
  }
  struct pollfd fds[MAX_CLIENTS];
  char peers[MAX_CLIENTS][32];
  int accepted = 0;
  int open = 0;
  uint64_t sequence = 0;
  uint64_t received = 0;
  while (accepted < clients || open > 0) {
    if (accepted < clients) {
      struct sockaddr_in from;
      socklen_t size = sizeof from;
      // Clients connect at the start: take them all before serving.
      const int fd = accept(listener, (struct sockaddr*)&from, &size);
      if (fd < 0) {
        if (errno == EINTR) continue;
        fprintf(stderr, "tsapp: accept: %s\n", strerror(errno));
        return 1;
      }
      no_delay(fd);
      endpoint_text(&from, peers[accepted], sizeof peers[accepted]);
      fds[accepted].fd = fd;
      fds[accepted].events = POLLIN;
      ++accepted;
      ++open;
      continue;
    }
    if (poll(fds, (nfds_t)accepted, -1) < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    for (int i = 0; i < accepted; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      uint64_t id = 0;
      const int got = read_message(fds[i].fd, &id);
      if (got <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open;
        continue;
      }
      lttng_ust_tracepoint(tsapp, msg_recv, id, peers[i]);
      ++received;
      if (send_message(fds[i].fd, next_id(host, &sequence), peers[i]) != 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  close(listener);
  printf("tsapp serve: %llu messages received, %llu sent\n", (unsigned long long)received,
         (unsigned long long)sequence);
  return 0;
}

static int connect_to(struct sockaddr_in address, uint64_t host, double rate, long duration_ms) {
  char peer[32];
  endpoint_text(&address, peer, sizeof peer);
  int fd = -1;
  // The server may still be starting: try for ten seconds.
  for (int attempt = 0; attempt < 200; ++attempt) {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr*)&address, sizeof address) == 0) break;
    if (fd >= 0) close(fd);
    fd = -1;
    usleep(50000);
  }
  if (fd < 0) {
    fprintf(stderr, "tsapp: cannot connect to %s\n", peer);
    return 1;
  }
  no_delay(fd);
  const double start = now_seconds();
  const double end = start + (double)duration_ms / 1000.0;
  uint64_t sequence = 0;
  uint64_t received = 0;
  for (double due = start; due < end; due += 1.0 / rate) {
    const double wait = due - now_seconds();
    if (wait > 0) usleep((useconds_t)(wait * 1e6));
    if (send_message(fd, next_id(host, &sequence), peer) != 0) break;
    uint64_t id = 0;
    if (read_message(fd, &id) != 1) break;
    lttng_ust_tracepoint(tsapp, msg_recv, id, peer);
    ++received;
  }
  close(fd);
  printf("tsapp connect: %llu messages sent, %llu received\n", (unsigned long long)sequence,
         (unsigned long long)received);
  return 0;
}

static void* tick(void* argument) {
  const int cpu = (int)(intptr_t)argument;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) return NULL;
  const long ms = atol(getenv("TSAPP_TICK_MS"));
  const struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
  for (;;) {
    lttng_ust_tracepoint(tsapp, tick, cpu);
    nanosleep(&pause, NULL);
  }
  return NULL;
}

static void start_ticks(void) {
  const char* ms = getenv("TSAPP_TICK_MS");
  if (ms == NULL || atol(ms) <= 0) return;
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);
  for (long cpu = 0; cpu < cpus && cpu < CPU_SETSIZE; ++cpu) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, tick, (void*)(intptr_t)cpu) == 0) pthread_detach(thread);
  }
}

int main(int argc, char** argv) {
  struct sockaddr_in address;
  if (argc == 6 && !parse_endpoint(argv[2], &address)) {
    fprintf(stderr, "tsapp: not [ADDRESS:]PORT: %s\n", argv[2]);
    return 2;
  }
  start_ticks();
  if (argc == 6 && strcmp(argv[1], "serve") == 0) {
    return serve(address, atoi(argv[3]), strtoull(argv[4], NULL, 10), atoi(argv[5]));
  }
  if (argc == 6 && strcmp(argv[1], "connect") == 0) {
    const double rate = atof(argv[4]);
    if (rate <= 0) {
      fprintf(stderr, "tsapp: the rate must be positive\n");
      return 2;
    }
    return connect_to(address, strtoull(argv[3], NULL, 10), rate, atol(argv[5]));
  }
  fprintf(stderr,
          "usage: tsapp serve [ADDRESS:]PORT CLIENTS HOST_ID MAX_SECONDS\n"
          "       tsapp connect [ADDRESS:]PORT HOST_ID RATE DURATION_MS\n");
  return 2;
}
