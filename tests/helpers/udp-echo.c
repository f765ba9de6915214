// SPDX-License-Identifier: GPL-2.0
/*
 * udp-echo ADDRESS COUNT SIZE [unread]: binds a UDP socket to ADDRESS
 * (IPv4, a port the kernel picks), sends it COUNT datagrams of SIZE bytes
 * and reads each back before sending the next (waiting 5 s at most), so
 * that none waits in its receive queue long enough to be dropped. Exits 0
 * if every one went and came back whole. Each datagram read is freed by
 * the kernel as consumed. With "unread", none is read: the socket is
 * closed with all of them queued, and the kernel drops each as it frees
 * the socket. Either way, by then the kernel has reused the field of the
 * packet where its device was.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	struct timeval wait = { .tv_sec = 5 };
	socklen_t len = sizeof(me);
	static char payload[65507], back[65507];
	int fd, count, size, i, unread;
	ssize_t got;

	unread = argc == 5 && !strcmp(argv[4], "unread");
	if ((argc != 4 && !unread) ||
	    inet_pton(AF_INET, argv[1], &me.sin_addr) != 1) {
		fprintf(stderr, "usage: udp-echo ADDRESS COUNT SIZE [unread]\n");
		return 2;
	}
	count = atoi(argv[2]);
	size = atoi(argv[3]);
	if (size < 0 || size > (int)sizeof(payload)) {
		fprintf(stderr, "udp-echo: SIZE is 0 to %zu\n", sizeof(payload));
		return 2;
	}
	memset(payload, 'u', size);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait)) ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me)) ||
	    getsockname(fd, (struct sockaddr *)&me, &len)) {
		perror("udp-echo: socket");
		return 1;
	}
	for (i = 0; i < count; i++) {
		if (sendto(fd, payload, size, 0, (struct sockaddr *)&me,
			   sizeof(me)) != size) {
			perror("udp-echo: sendto");
			return 1;
		}
		if (unread)
			continue;
		got = recv(fd, back, sizeof(back), 0);
		if (got != size || memcmp(back, payload, size)) {
			fprintf(stderr, "udp-echo: datagram %d came back as %zd bytes\n",
				i, got);
			return 1;
		}
	}
	close(fd);
	return 0;
}
