#!/usr/bin/perl
# Print pickup labels for today's orders.
use strict;
use warnings;

my %orders = (
    17 => { name => 'Ada Brook', items => ['SOUR-1', 'CROIS'] },
    18 => { name => 'Ben Okafor', items => ['CINN'] },
);

foreach my $id (sort keys %orders) {
    my $o = $orders{$id};
    print "#$id  $o->{name}\n";
    foreach my $item (@{ $o->{items} }) {
        print "   - $item\n"
    }
    if ($o->{paid} eq 'yes' {
        print "   PAID\n";
    }
}
