// SPDX-License-Identifier: GPL-2.0
/*
 * offload DEV gro|tso on|off: turns generic receive offload or TCP
 * segmentation offload on or off for DEV, as `ethtool -K DEV gro on` does,
 * which busybox lacks. A veth device that is up receives through NAPI and
 * napi_gro_receive() with GRO on, from a peer whose TSO is off.
 */
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct ethtool_value value;
	struct ifreq ifr;
	int fd, err;

	if (argc != 4 || strlen(argv[1]) >= IFNAMSIZ ||
	    (strcmp(argv[2], "gro") && strcmp(argv[2], "tso")) ||
	    (strcmp(argv[3], "on") && strcmp(argv[3], "off"))) {
		fprintf(stderr, "usage: offload DEV gro|tso on|off\n");
		return 2;
	}
	value.cmd = strcmp(argv[2], "gro") ? ETHTOOL_STSO : ETHTOOL_SGRO;
	value.data = !strcmp(argv[3], "on");
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, argv[1], strlen(argv[1]));
	ifr.ifr_data = (void *)&value;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	err = ioctl(fd, SIOCETHTOOL, &ifr);
	if (err)
		perror(argv[1]);
	close(fd);
	return !!err;
}
