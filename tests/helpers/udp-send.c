// SPDX-License-Identifier: GPL-2.0
/*
 * udp-send ADDRESS PORT COUNT SIZE: sends COUNT datagrams of SIZE bytes to
 * ADDRESS:PORT (IPv4), one sendto() each, and exits 0 if every one went;
 * nothing listens there, in the tests that use it, so each is dropped on
 * arrival, under the reason the kernel gives.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	char payload[65507] = { 0 };
	int fd, count, size, i;

	if (argc != 5 || inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fprintf(stderr, "usage: udp-send ADDRESS PORT COUNT SIZE\n");
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	count = atoi(argv[3]);
	size = atoi(argv[4]);
	if (size < 0 || size > (int)sizeof(payload)) {
		fprintf(stderr, "udp-send: SIZE is 0 to %zu\n", sizeof(payload));
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("udp-send: socket");
		return 1;
	}
	for (i = 0; i < count; i++) {
		if (sendto(fd, payload, size, 0, (struct sockaddr *)&to,
			   sizeof(to)) != size) {
			perror("udp-send: sendto");
			return 1;
		}
	}
	close(fd);
	return 0;
}
