! geev_example.f90: eigenvalues and right eigenvectors of a batch of real
! non-symmetric matrices from Fortran, with the module `batcheig`.
!
! A LAPACK code computes them in a loop,
!     do b = 1, batch
!       call dgeev('N', 'V', n, a(:,:,b), n, wr(:,b), wi(:,b), vl, 1, &
!                  vr(:,:,b), n, work, lwork, info(b))
!     end do
! batcheig does the whole batch in one call:
!     call batcheig_geev(a, wr, wi, info, vr=vr)
!
! Build against an installed batcheig:
!   gfortran geev_example.f90 $(pkg-config --cflags --libs batcheig-fortran)
! or with CMake: find_package(batcheig COMPONENTS fortran) and link
! batcheig::fortran (see CMakeLists.txt and Makefile beside this file).
!
! Exit status 0 when every residual ||A v - lambda v|| is small, 1 otherwise.
program geev_example
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_ptr
  use, intrinsic :: iso_fortran_env, only: int64
  use batcheig
  implicit none

  integer, parameter :: n = 8, batch = 2000
  real(c_double), parameter :: threshold = 20.0_c_double
  ! a(:,:,b) is matrix b; the arrays are contiguous, as batcheig requires.
  real(c_double), allocatable :: a(:, :, :), a0(:, :, :), wr(:, :), wi(:, :), vr(:, :, :)
  integer(c_int), allocatable :: info(:)
  type(c_ptr) :: handle
  integer(c_int) :: st, backend, version
  integer :: b, i, j, failures
  integer(int64) :: seed   ! Park-Miller generator, 64-bit products
  real(c_double) :: worst, ratio

  allocate (a(n, n, batch), wr(n, batch), wi(n, batch), vr(n, n, batch), info(batch))

  ! A deterministic batch: matrix b is a pseudo-random matrix plus b/batch
  ! on the diagonal.
  seed = 2024
  do b = 1, batch
    do j = 1, n
      do i = 1, n
        seed = modulo(seed * 16807_int64, 2147483647_int64)
        a(i, j, b) = 2.0_c_double * seed / 2147483647.0_c_double - 1.0_c_double
      end do
      a(j, j, b) = a(j, j, b) + real(b, c_double) / batch
    end do
  end do
  a0 = a   ! a is overwritten by the call

  ! One handle for all calls (backend AUTO: the GPU when there is one, else
  ! the host). Without handle=, each call creates and destroys its own.
  call check(batcheigCreate(handle), 'batcheigCreate')
  call check(batcheigGetBackend(handle, backend), 'batcheigGetBackend')
  call check(batcheigGetVersion(version), 'batcheigGetVersion')
  print '(a,i0,a,i0,a,i0,a,a)', 'batcheig ', version / 10000, '.', mod(version / 100, 100), '.', &
      mod(version, 100), ', backend ', merge('CUDA', 'host', backend == BATCHEIG_BACKEND_CUDA)

  ! The batched call. vr= asks for right eigenvectors (vl= for left ones);
  ! status= receives the batcheigStatus_t (without it an error stops the
  ! program with a message).
  call batcheig_geev(a, wr, wi, info, vr=vr, handle=handle, status=st)
  if (st /= BATCHEIG_STATUS_SUCCESS) then
    print '(a,a)', 'batcheig_geev failed: ', batcheig_status_string(st)
    error stop 1
  end if
  call check(batcheigDestroy(handle), 'batcheigDestroy')

  print '(a,i0,a,i0,a)', 'eigenvalues of ', batch, ' matrices of size ', n, ', matrix 1:'
  do j = 1, n
    print '(2x,f12.8,sp,f12.8,a)', wr(j, 1), wi(j, 1), 'i'
  end do

  ! Residual ||A v - lambda v||_2 / (n ||A||_1 eps) for every eigenpair. As
  ! in LAPACK, a complex pair (j, j+1) is stored as v = vr(:,j) +- i vr(:,j+1).
  failures = 0
  worst = 0
  do b = 1, batch
    if (info(b) /= 0) then
      failures = failures + 1
      cycle
    end if
    do j = 1, n
      ratio = residual(a0(:, :, b), wr(j, b), wi(j, b), eigvec(vr(:, :, b), wi(:, b), j))
      worst = max(worst, ratio)
      if (.not. (ratio <= threshold)) failures = failures + 1
    end do
  end do
  print '(a,f6.2,a,f4.0,a,i0)', 'worst residual ratio ', worst, ' (threshold ', threshold, &
      '), failures: ', failures
  if (failures > 0) then
    print '(a)', 'FAILED'
    error stop 1
  end if
  print '(a)', 'ok'

contains

  subroutine check(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status /= BATCHEIG_STATUS_SUCCESS) then
      print '(a,a,a)', what, ' failed: ', batcheig_status_string(status)
      error stop 1
    end if
  end subroutine

  ! Eigenvector j as a complex vector, from LAPACK's real packing.
  function eigvec(v, wi, j) result(x)
    real(c_double), intent(in) :: v(:, :), wi(:)
    integer, intent(in) :: j
    complex(c_double) :: x(size(v, 1))
    if (wi(j) == 0) then
      x = v(:, j)
    else if (wi(j) > 0) then
      x = cmplx(v(:, j), v(:, j + 1), c_double)
    else
      x = cmplx(v(:, j - 1), -v(:, j), c_double)
    end if
  end function

  real(c_double) function residual(a, lr, li, x)
    real(c_double), intent(in) :: a(:, :), lr, li
    complex(c_double), intent(in) :: x(:)
    real(c_double) :: anorm
    complex(c_double) :: r(size(x))
    integer :: k
    r = -cmplx(lr, li, c_double) * x
    do k = 1, size(x)
      r = r + a(:, k) * x(k)
    end do
    anorm = maxval(sum(abs(a), dim=1))
    residual = norm2c(r) / (size(x) * max(anorm, tiny(anorm)) * epsilon(anorm))
    ! The vectors have unit 2-norm.
    if (abs(norm2c(x) - 1) > threshold * size(x) * epsilon(anorm)) residual = huge(anorm)
  end function

  real(c_double) function norm2c(x)
    complex(c_double), intent(in) :: x(:)
    norm2c = sqrt(sum(real(x)**2 + aimag(x)**2))
  end function

end program geev_example
