#!/usr/bin/perl
# Tally the till's end-of-day export: takings per product and per payment method.
use strict;
use warnings;

my $file = shift or die "usage: $0 TILL_EXPORT\n";
open(my $fh, '<', $file) or die "cannot open $file: $!\n";
my (%takings, %by_method, $total);
my $header = <$fh>;
while (my $line = <$fh>) {
    chomp $line;
    my ($time, $sku, $qty, $unit, $method) = split /,/, $line;
    my $amount = $qty * $unit;
    $takings{$sku} += $amount;
    $by_method{$method} += $amount;
    $total += $amount;
}
close $fh;

printf "%-10s %8.2f\n", $_, $takings{$_} / 100 for sort keys %takings;
print "-" x 19, "\n";
printf "%-10s %8.2f\n", $_, $by_method{$_} / 100 for sort keys %by_method;
printf "total      %8.2f\n", $total / 100;
my $avg = $total / $by_method{voucher};
printf "voucher share %.1f%%\n", 100 / $avg;
