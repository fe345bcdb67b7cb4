/* notify.h - tells the service manager how we are: systemd's sd_notify datagram protocol. */
#ifndef OOMPARDON_NOTIFY_H
#define OOMPARDON_NOTIFY_H

/* Sends state (e.g. "READY=1\nSTATUS=...") to $NOTIFY_SOCKET (a path, or
 * "@name" for an abstract socket). 1 sent, 0 no manager listens, -errno. */
int notify_send(const char *state);

/* "RELOADING=1" with the MONOTONIC_USEC= systemd asks for since v253. 1, 0, -errno. */
int notify_reloading(void);

#endif
